// The tensor ops that make a new tensor: each result is a new buffer
// (memref.alloc, identity layout) that the op's rewrite fills. tensor.pad
// fills it with the padding (linalg.fill of one value, or a linalg.generic
// over linalg.index) and copies its source into a subview of the interior;
// tensor.generate runs its body the same way; tensor.from_elements stores
// each element; tensor.splat fills. Sources are only read: a write to the
// source after the pad stays in place, and so does a write into the new
// buffer.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// The body yields a value defined outside it: one linalg.fill.
func.func @pad_value(%t: tensor<2x3xf32>, %v: f32) -> tensor<3x5xf32> {
  %p = tensor.pad %t low[1, 0] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<3x5xf32>
  return %p : tensor<3x5xf32>
}
// CHECK-LABEL: func.func @pad_value(
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x5xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<3x5xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 0] [2, 3] [1, 1] : memref<3x5xf32> to memref<2x3xf32, strided<[5, 1], offset: 5>>
// CHECK-NEXT:    memref.copy{{.*}}%t, %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<3x5xf32>
// ANALYSIS-LABEL: func.func @pad_value(%t: tensor<2x3xf32> {bufferization.access = "read"}, %v: f32)
// ANALYSIS:       } {__inplace_operands_attr__ = ["true"]} : tensor<2x3xf32> to tensor<3x5xf32>

// A dynamic extent is the source's extent plus the padding; a constant in
// the body is taken out to fill with.
func.func @pad_dynamic(%t: tensor<?x4xf32>, %l: index) -> tensor<?x7xf32> {
  %p = tensor.pad %t low[%l, 1] high[2, 2] {
  ^bb0(%i: index, %j: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<?x4xf32> to tensor<?x7xf32>
  return %p : tensor<?x7xf32>
}
// CHECK-LABEL: func.func @pad_dynamic(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = memref.dim %t, %[[C0]] : memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[SIZE:.*]] = affine.apply affine_map<()[s0, s1] -> (((s0 + s1) + 2))> ()[%[[N]], %l]
// CHECK-NEXT:    %[[P:.*]] = memref.alloc(%[[SIZE]]) {alignment = 64 : i64} : memref<?x7xf32>
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%[[P]] : memref<?x7xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][%l, 1] [%[[N]], 4] [1, 1] : memref<?x7xf32> to memref<?x4xf32, strided<[7, 1], offset: ?>>
// CHECK-NEXT:    memref.copy{{.*}}%t, %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<?x7xf32>
// ANALYSIS-LABEL: func.func @pad_dynamic(
// ANALYSIS:       } {__inplace_operands_attr__ = ["true", "none"]} : tensor<?x4xf32> to tensor<?x7xf32>

// A padding value computed from the position: the body runs in a
// linalg.generic over the whole buffer, its index arguments linalg.index.
func.func @pad_index_dependent(%t: tensor<2x2xi32>) -> tensor<4x3xi32> {
  %p = tensor.pad %t low[1, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %s = arith.muli %i, %j : index
    %c = arith.index_cast %s : index to i32
    tensor.yield %c : i32
  } : tensor<2x2xi32> to tensor<4x3xi32>
  return %p : tensor<4x3xi32>
}
// CHECK-LABEL: func.func @pad_index_dependent(
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x3xi32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[P]] : memref<4x3xi32>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CHECK-NEXT:      %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %s = arith.muli %[[I0]], %[[I1]] : index
// CHECK-NEXT:      %c = arith.index_cast %s : index to i32
// CHECK-NEXT:      linalg.yield %c : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 1] [2, 2] [1, 1] : memref<4x3xi32> to memref<2x2xi32, strided<[3, 1], offset: 4>>
// CHECK-NEXT:    memref.copy{{.*}}%t, %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<4x3xi32>

// The pad reads its source before the fill writes it: the fill stays in
// place on the argument.
func.func @pad_source_written_after(%t: tensor<2x2xf32>, %v: f32) -> (tensor<4x4xf32>, tensor<2x2xf32>) {
  %p = tensor.pad %t low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x2xf32> to tensor<4x4xf32>
  %w = linalg.fill ins(%v : f32) outs(%t : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %p, %w : tensor<4x4xf32>, tensor<2x2xf32>
}
// CHECK-LABEL: func.func @pad_source_written_after(
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<4x4xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 1] [2, 2] [1, 1]
// CHECK-NEXT:    memref.copy{{.*}}%t, %[[I]]
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%t : memref<2x2xf32, strided<[?, ?], offset: ?>>)
// CHECK-NEXT:    func.return %[[P]], %t
// ANALYSIS-LABEL: func.func @pad_source_written_after(%t: tensor<2x2xf32> {bufferization.access = "read-write"}, %v: f32)
// ANALYSIS:       } {__inplace_operands_attr__ = ["true"]} : tensor<2x2xf32> to tensor<4x4xf32>
// ANALYSIS-NEXT:  linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// ANALYSIS-NEXT:  func.return {__inplace_operands_attr__ = ["true", "true"], __equivalent_func_args__ = [-1 : i64, 0 : i64]}

// The pad's new buffer is writable: an elementwise op reuses it.
func.func @pad_result_written(%t: tensor<3xf32>, %v: f32) -> tensor<5xf32> {
  %p = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<3xf32> to tensor<5xf32>
  %n = linalg.negf ins(%p : tensor<5xf32>) outs(%p : tensor<5xf32>) -> tensor<5xf32>
  return %n : tensor<5xf32>
}
// CHECK-LABEL: func.func @pad_result_written(
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<5xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1] [3] [1] : memref<5xf32> to memref<3xf32, strided<[1], offset: 1>>
// CHECK-NEXT:    memref.copy{{.*}}%t, %[[I]]
// CHECK-NEXT:    linalg.negf ins(%[[P]] : memref<5xf32>) outs(%[[P]] : memref<5xf32>)
// CHECK-NEXT:    func.return %[[P]] : memref<5xf32>
// ANALYSIS-LABEL: func.func @pad_result_written(
// ANALYSIS:       linalg.negf {__inplace_operands_attr__ = ["true", "true"]}

// A pad nobody uses is dropped (upstream keeps its allocation and copy).
func.func @pad_unused(%t: tensor<2xf32>, %v: f32) -> tensor<2xf32> {
  %p = tensor.pad %t low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<2xf32> to tensor<4xf32>
  return %t : tensor<2xf32>
}
// CHECK-LABEL: func.func @pad_unused(
// CHECK-NEXT:    func.return %t

func.func @generate_dynamic(%n: index) -> tensor<?x3xindex> {
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    tensor.yield %s : index
  } : tensor<?x3xindex>
  return %g : tensor<?x3xindex>
}
// CHECK-LABEL: func.func @generate_dynamic(
// CHECK-NEXT:    %[[G:.*]] = memref.alloc(%n) {alignment = 64 : i64} : memref<?x3xindex>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[G]] : memref<?x3xindex>) {
// CHECK-NEXT:    ^bb0(%{{.*}}: index):
// CHECK-NEXT:      %[[I0:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I1:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %s = arith.addi %[[I0]], %[[I1]] : index
// CHECK-NEXT:      linalg.yield %s : index
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[G]] : memref<?x3xindex>

func.func @generate_uniform(%v: i32) -> tensor<2x2xi32> {
  %g = tensor.generate {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : i32
  } : tensor<2x2xi32>
  return %g : tensor<2x2xi32>
}
// CHECK-LABEL: func.func @generate_uniform(
// CHECK-NEXT:    %[[G:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2xi32>
// CHECK-NEXT:    linalg.fill ins(%v : i32) outs(%[[G]] : memref<2x2xi32>)
// CHECK-NEXT:    func.return %[[G]] : memref<2x2xi32>

// Elements are stored in row-major order.
func.func @from_elements(%a: f32, %b: f32, %c: f32) -> tensor<2x3xf32> {
  %t = tensor.from_elements %a, %b, %c, %c, %b, %a : tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @from_elements(
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %a, %[[T]][%[[C0]], %[[C0]]] : memref<2x3xf32>
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    memref.store %b, %[[T]][%[[C0]], %[[C1]]] : memref<2x3xf32>
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    memref.store %c, %[[T]][%[[C0]], %[[C2]]] : memref<2x3xf32>
// CHECK-NEXT:    memref.store %c, %[[T]][%[[C1]], %[[C0]]] : memref<2x3xf32>
// CHECK-NEXT:    memref.store %b, %[[T]][%[[C1]], %[[C1]]] : memref<2x3xf32>
// CHECK-NEXT:    memref.store %a, %[[T]][%[[C1]], %[[C2]]] : memref<2x3xf32>
// CHECK-NEXT:    func.return %[[T]] : memref<2x3xf32>

// The tensor is read after the insertion: the insertion writes a copy.
func.func @from_elements_inserted(%a: i32, %b: i32) -> (tensor<2xi32>, tensor<2xi32>, i32) {
  %t = tensor.from_elements %a, %b : tensor<2xi32>
  %c0 = arith.constant 0 : index
  %u = tensor.insert %b into %t[%c0] : tensor<2xi32>
  %x = tensor.extract %t[%c0] : tensor<2xi32>
  return %u, %t, %x : tensor<2xi32>, tensor<2xi32>, i32
}
// CHECK-LABEL: func.func @from_elements_inserted(
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xi32>
// CHECK:         memref.store %b, %[[T]]
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xi32>
// CHECK-NEXT:    memref.copy{{.*}}%[[T]], %[[U]]
// CHECK-NEXT:    memref.store %b, %[[U]][%c0] {rtcheck.origin = "tensor.insert"} : memref<2xi32>
// CHECK-NEXT:    %x = memref.load %[[T]][%c0] {rtcheck.origin = "tensor.extract"} : memref<2xi32>
// CHECK-NEXT:    func.return %[[U]], %[[T]], %x : memref<2xi32>, memref<2xi32>, i32
// ANALYSIS-LABEL: func.func @from_elements_inserted(
// ANALYSIS:       tensor.insert %b into %t[%c0] {__inplace_operands_attr__ = ["none", "false", "none"]}

func.func @from_elements_rank0(%a: f32) -> tensor<f32> {
  %t = tensor.from_elements %a : tensor<f32>
  return %t : tensor<f32>
}
// CHECK-LABEL: func.func @from_elements_rank0(
// CHECK-NEXT:    %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<f32>
// CHECK-NEXT:    memref.store %a, %[[T]][] : memref<f32>
// CHECK-NEXT:    func.return %[[T]] : memref<f32>

func.func @splat(%v: f32, %n: index) -> (tensor<2x3xf32>, tensor<?xf32>) {
  %s = tensor.splat %v : tensor<2x3xf32>
  %d = tensor.splat %v[%n] : tensor<?xf32>
  return %s, %d : tensor<2x3xf32>, tensor<?xf32>
}
// CHECK-LABEL: func.func @splat(
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[S]] : memref<2x3xf32>)
// CHECK-NEXT:    %[[D:.*]] = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[D]] : memref<?xf32>)
// CHECK-NEXT:    func.return %[[S]], %[[D]] : memref<2x3xf32>, memref<?xf32>

// The splat is read (as an input) and written (as the init) by one
// elementwise op: in place.
func.func @splat_written(%v: f32, %x: tensor<3xf32>) -> tensor<3xf32> {
  %s = tensor.splat %v : tensor<3xf32>
  %r = linalg.add ins(%x, %s : tensor<3xf32>, tensor<3xf32>) outs(%s : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
// CHECK-LABEL: func.func @splat_written(
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[S]] : memref<3xf32>)
// CHECK-NEXT:    linalg.add ins(%x, %[[S]] : memref<3xf32, strided<[?], offset: ?>>, memref<3xf32>) outs(%[[S]] : memref<3xf32>)
// CHECK-NEXT:    func.return %[[S]] : memref<3xf32>
// ANALYSIS-LABEL: func.func @splat_written(
// ANALYSIS:       linalg.add {{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
