// Linalg named ops (and linalg.map, linalg.reduce, a generic with two
// results) through one-shot-bufferize: each result is the buffer of its
// init. An init read after the op is replaced by a new buffer, copied only
// when the op reads its init (matmul and reduce accumulate; fill, copy,
// transpose, broadcast and map overwrite); an elementwise op may write over
// its own input; a transposed read of the buffer being written may not.
// xDSL prints no attributes on linalg.transpose, linalg.broadcast and
// linalg.reduce in their custom form: their in-place decisions are checked
// in the generic form (GENERIC).
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @matmul_fill(%a: tensor<4x8xf32>, %b: tensor<8x3xf32>) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %m : tensor<4x3xf32>
}
// CHECK-LABEL: func.func @matmul_fill(
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x3xf32>
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%[[V0]] : memref<4x3xf32>)
// CHECK-NEXT:    linalg.matmul ins(%a, %b : memref<4x8xf32, strided<[?, ?], offset: ?>>, memref<8x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<4x3xf32>)
// CHECK-NEXT:    func.return %[[V0]] : memref<4x3xf32>

// matmul accumulates into its init: the copy keeps %c's contents.
func.func @matmul_init_read_after(%a: tensor<2x3xi32>, %b: tensor<3x2xi32>, %c: tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>) {
  %m = linalg.matmul ins(%a, %b : tensor<2x3xi32>, tensor<3x2xi32>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  return %m, %c : tensor<2x2xi32>, tensor<2x2xi32>
}
// CHECK-LABEL: func.func @matmul_init_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2xi32>
// CHECK-NEXT:    memref.copy{{.*}}%c, %[[V0]]
// CHECK-NEXT:    linalg.matmul ins(%a, %b : memref<2x3xi32, strided<[?, ?], offset: ?>>, memref<3x2xi32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<2x2xi32>)
// CHECK-NEXT:    func.return %[[V0]], %c : memref<2x2xi32>, memref<2x2xi32, strided<[?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @matmul_init_read_after(%a: tensor<2x3xi32> {bufferization.access = "read"}, %b: tensor<3x2xi32> {bufferization.access = "read"}, %c: tensor<2x2xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg.matmul{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// fill overwrites: a new buffer, no copy.
func.func @fill_arg_read_after(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %f, %t : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @fill_arg_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[V0]] : memref<4xf32>)
// CHECK-NEXT:    func.return %[[V0]], %t : memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @fill_arg_read_after(%t: tensor<4xf32> {bufferization.access = "read"}, %v: f32)
// ANALYSIS:       linalg.fill{{.*}}__inplace_operands_attr__ = ["none", "false"]

func.func @transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %t = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  return %t : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x2xf32>
// CHECK-NEXT:    linalg.transpose ins(%x : memref<2x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<3x2xf32>) permutation = [1, 0]
// CHECK-NEXT:    func.return %[[V0]] : memref<3x2xf32>
// GENERIC-LABEL: sym_name = "transpose"
// GENERIC:       {__inplace_operands_attr__ = ["true", "true"]} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>

// Writing the input while reading it transposed would be a conflict.
func.func @transpose_onto_input(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %t = linalg.transpose ins(%x : tensor<3x3xf32>) outs(%x : tensor<3x3xf32>) permutation = [1, 0]
  return %t : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @transpose_onto_input(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x3xf32>
// CHECK-NEXT:    linalg.transpose ins(%x : memref<3x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<3x3xf32>) permutation = [1, 0]
// CHECK-NEXT:    func.return %[[V0]] : memref<3x3xf32>
// GENERIC-LABEL: sym_name = "transpose_onto_input"
// GENERIC:       {__inplace_operands_attr__ = ["true", "false"]} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>

func.func @broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %b = linalg.broadcast ins(%x : tensor<3xf32>) outs(%e : tensor<2x3xf32>) dimensions = [0]
  return %b : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @broadcast(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    linalg.broadcast ins(%x : memref<3xf32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<2x3xf32>) dimensions = [0]
// CHECK-NEXT:    func.return %[[V0]] : memref<2x3xf32>
// GENERIC-LABEL: sym_name = "broadcast"
// GENERIC:       {__inplace_operands_attr__ = ["true", "true"]} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>

func.func @reduce(%x: tensor<4x5xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @reduce(
// CHECK-NEXT:    linalg.reduce ins(%x : memref<4x5xf32, strided<[?, ?], offset: ?>>) outs(%init : memref<4xf32, strided<[?], offset: ?>>) dimensions = [1]
// CHECK-NEXT:    (%in: f32, %acc: f32) {
// CHECK-NEXT:      %s = arith.addf %in, %acc : f32
// CHECK-NEXT:      linalg.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %init : memref<4xf32, strided<[?], offset: ?>>
// GENERIC-LABEL: sym_name = "reduce"
// GENERIC:       {__inplace_operands_attr__ = ["true", "true"]} : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4xf32>

func.func @reduce_init_read_after(%x: tensor<4x5xi32>, %init: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %r = linalg.reduce ins(%x : tensor<4x5xi32>) outs(%init : tensor<5xi32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %s = arith.maxsi %in, %acc : i32
      linalg.yield %s : i32
    }
  return %r, %init : tensor<5xi32>, tensor<5xi32>
}
// CHECK-LABEL: func.func @reduce_init_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5xi32>
// CHECK-NEXT:    memref.copy{{.*}}%init, %[[V0]]
// CHECK-NEXT:    linalg.reduce ins(%x : memref<4x5xi32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<5xi32>) dimensions = [0]
// CHECK-NEXT:    (%in: i32, %acc: i32) {
// CHECK-NEXT:      %s = arith.maxsi %in, %acc : i32
// CHECK-NEXT:      linalg.yield %s : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %init : memref<5xi32>, memref<5xi32, strided<[?], offset: ?>>
// GENERIC-LABEL: sym_name = "reduce_init_read_after"
// GENERIC:       {__inplace_operands_attr__ = ["true", "false"]} : (tensor<4x5xi32>, tensor<5xi32>) -> tensor<5xi32>

// linalg.map is elementwise: it writes over its input %x.
func.func @map_in_place(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<6xf32> {
  %m = linalg.map ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%x : tensor<6xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    }
  return %m : tensor<6xf32>
}
// CHECK-LABEL: func.func @map_in_place(
// CHECK-NEXT:    linalg.map { arith.mulf } ins(%x, %y : memref<6xf32, strided<[?], offset: ?>>, memref<6xf32, strided<[?], offset: ?>>) outs(%x : memref<6xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %x : memref<6xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @map_in_place(%x: tensor<6xf32> {bufferization.access = "read-write"}, %y: tensor<6xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg.map{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]

func.func @map_input_read_after(%x: tensor<6xf32>, %y: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %m = linalg.map ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%x : tensor<6xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    }
  return %m, %x : tensor<6xf32>, tensor<6xf32>
}
// CHECK-LABEL: func.func @map_input_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6xf32>
// CHECK-NEXT:    linalg.map { arith.subf } ins(%x, %y : memref<6xf32, strided<[?], offset: ?>>, memref<6xf32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<6xf32>)
// CHECK-NEXT:    func.return %[[V0]], %x : memref<6xf32>, memref<6xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @map_input_read_after(%x: tensor<6xf32> {bufferization.access = "read"}, %y: tensor<6xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg.map{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

func.func @copy(%x: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %e = tensor.empty() : tensor<5xi32>
  %c = linalg.copy ins(%x : tensor<5xi32>) outs(%e : tensor<5xi32>) -> tensor<5xi32>
  %d = linalg.copy ins(%x : tensor<5xi32>) outs(%x : tensor<5xi32>) -> tensor<5xi32>
  return %c, %d : tensor<5xi32>, tensor<5xi32>
}
// CHECK-LABEL: func.func @copy(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5xi32>
// CHECK-NEXT:    linalg.copy ins(%x : memref<5xi32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<5xi32>)
// CHECK-NEXT:    linalg.copy ins(%x : memref<5xi32, strided<[?], offset: ?>>) outs(%x : memref<5xi32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %[[V0]], %x : memref<5xi32>, memref<5xi32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @copy(%x: tensor<5xi32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg.copy{{.*}}__inplace_operands_attr__ = ["true", "true"]
// ANALYSIS:       linalg.copy{{.*}}__inplace_operands_attr__ = ["true", "true"]

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @generic_two_results(%x: tensor<3x4xf32>, %acc: tensor<3xf32>) -> (tensor<3x4xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%e, %acc : tensor<3x4xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32, %s: f32):
    %n = arith.negf %a : f32
    %t = arith.addf %s, %a : f32
    linalg.yield %n, %t : f32, f32
  } -> (tensor<3x4xf32>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3xf32>
}
// CHECK-LABEL: func.func @generic_two_results(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]], %acc : memref<3x4xf32>, memref<3xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%a: f32, %o: f32, %s: f32):
// CHECK-NEXT:      %n = arith.negf %a : f32
// CHECK-NEXT:      %t = arith.addf %s, %a : f32
// CHECK-NEXT:      linalg.yield %n, %t : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %acc : memref<3x4xf32>, memref<3xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @generic_two_results(%x: tensor<3x4xf32> {bufferization.access = "read"}, %acc: tensor<3xf32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg.generic{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]

// Two outputs from one tensor.empty: two buffers.
func.func @generic_two_results_one_init(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e, %e : tensor<3x4xf32>, tensor<3x4xf32>) {
  ^bb0(%a: f32, %o: f32, %p: f32):
    %n = arith.negf %a : f32
    %m = arith.mulf %a, %a : f32
    linalg.yield %n, %m : f32, f32
  } -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xf32>
}
// CHECK-LABEL: func.func @generic_two_results_one_init(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<3x4xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]], %[[V1]] : memref<3x4xf32>, memref<3x4xf32>) {
// CHECK-NEXT:    ^bb0(%a: f32, %o: f32, %p: f32):
// CHECK-NEXT:      %n = arith.negf %a : f32
// CHECK-NEXT:      %m = arith.mulf %a, %a : f32
// CHECK-NEXT:      linalg.yield %n, %m : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %[[V1]] : memref<3x4xf32>, memref<3x4xf32>
// ANALYSIS-LABEL: func.func @generic_two_results_one_init(%x: tensor<3x4xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg.generic{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// Each output written over the input of the same index, elementwise.
func.func @generic_two_results_in_place(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<3x4xf32>, tensor<3x4xf32>) outs(%x, %y : tensor<3x4xf32>, tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
    %s = arith.addf %a, %b : f32
    %d = arith.subf %a, %b : f32
    linalg.yield %s, %d : f32, f32
  } -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xf32>
}
// CHECK-LABEL: func.func @generic_two_results_in_place(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : memref<3x4xf32, strided<[?, ?], offset: ?>>, memref<3x4xf32, strided<[?, ?], offset: ?>>) outs(%x, %y : memref<3x4xf32, strided<[?, ?], offset: ?>>, memref<3x4xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
// CHECK-NEXT:      %s = arith.addf %a, %b : f32
// CHECK-NEXT:      %d = arith.subf %a, %b : f32
// CHECK-NEXT:      linalg.yield %s, %d : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %x, %y : memref<3x4xf32, strided<[?, ?], offset: ?>>, memref<3x4xf32, strided<[?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @generic_two_results_in_place(%x: tensor<3x4xf32> {bufferization.access = "read-write"}, %y: tensor<3x4xf32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg.generic{{.*}}__inplace_operands_attr__ = ["true", "true", "true", "true"]
