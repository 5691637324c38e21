// arith ops on tensors. A dense tensor constant becomes a private constant
// memref.global read with memref.get_global (identical constants share one
// global); its buffer must not be written, so a write goes to a new buffer
// (with a copy when the old contents are read). arith.select picks one of
// two buffers: both operands alias the result, so writing the result
// writes whichever was picked, and an operand read afterwards is copied.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// The globals come first in the module, one per distinct constant.
// CHECK:       "memref.global"() <{sym_name = "[[G23:__constant_2x3xf32[_0-9]*]]", type = memref<2x3xf32>, initial_value = dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>, sym_visibility = "private", constant, alignment = 64 : i64}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[HALF:__constant_2x3xf32[_0-9]*]]", type = memref<2x3xf32>, initial_value = dense<5.000000e-01> : tensor<2x3xf32>, {{.*}}}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[G4I:__constant_4xi32[_0-9]*]]", type = memref<4xi32>, initial_value = dense<[1, -2, 3, -4]> : tensor<4xi32>, {{.*}}}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[G4F:__constant_4xf32[_0-9]*]]", type = memref<4xf32>, {{.*}}}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[G3I:__constant_3xi32[_0-9]*]]", type = memref<3xi32>, initial_value = dense<[10, 20, 30]> : tensor<3xi32>, {{.*}}}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[G3F:__constant_3xf32[_0-9]*]]", type = memref<3xf32>, {{.*}}}> : () -> ()
// CHECK-NOT:   "memref.global"

// Only read: the global itself is the input.
func.func @constant_read(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %s = linalg.add ins(%x, %c : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @constant_read(
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @[[G23]] : memref<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    linalg.add ins(%x, %[[C]] : memref<2x3xf32, strided<[?, ?], offset: ?>>, memref<2x3xf32>) outs(%[[S]] : memref<2x3xf32>)
// CHECK-NEXT:    func.return %[[S]] : memref<2x3xf32>

// Equal constants share a global; another value of the same type gets its own.
func.func @constants_shared() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>) {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %c = arith.constant dense<0.5> : tensor<2x3xf32>
  %d = arith.constant dense<[1, -2, 3, -4]> : tensor<4xi32>
  return %a, %b, %c, %d : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4xi32>
}
// CHECK-LABEL: func.func @constants_shared(
// CHECK-NEXT:    %[[A:.*]] = memref.get_global @[[G23]] : memref<2x3xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.get_global @[[G23]] : memref<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @[[HALF]] : memref<2x3xf32>
// CHECK-NEXT:    %[[D:.*]] = memref.get_global @[[G4I]] : memref<4xi32>
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]]

// The constant is the init: the op writes a new buffer, without a copy
// since linalg.add does not read its init.
func.func @constant_written(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = linalg.add ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
// CHECK-LABEL: func.func @constant_written(
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @[[G4F]] : memref<4xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.add ins(%x, %[[C]] : memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) outs(%[[S]] : memref<4xf32>)
// CHECK-NEXT:    func.return %[[S]] : memref<4xf32>
// ANALYSIS-LABEL: func.func @constant_written(
// ANALYSIS:       linalg.add {{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// tensor.insert keeps the other elements: the copy has the constant's contents.
func.func @constant_inserted(%v: i32) -> (tensor<3xi32>, tensor<3xi32>) {
  %c = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %i = arith.constant 1 : index
  %u = tensor.insert %v into %c[%i] : tensor<3xi32>
  return %u, %c : tensor<3xi32>, tensor<3xi32>
}
// CHECK-LABEL: func.func @constant_inserted(
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @[[G3I]] : memref<3xi32>
// CHECK-NEXT:    %i = arith.constant 1 : index
// CHECK-NEXT:    %[[U:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi32>
// CHECK-NEXT:    memref.copy{{.*}}%[[C]], %[[U]]
// CHECK-NEXT:    memref.store %v, %[[U]][%i] {rtcheck.origin = "tensor.insert"} : memref<3xi32>
// CHECK-NEXT:    func.return %[[U]], %[[C]] : memref<3xi32>, memref<3xi32>
// ANALYSIS-LABEL: func.func @constant_inserted(
// ANALYSIS:       tensor.insert %v into %c[%i] {__inplace_operands_attr__ = ["none", "false", "none"]}

func.func @select(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.select %c, %a, %b : tensor<4xf32>
  return %s : tensor<4xf32>
}
// CHECK-LABEL: func.func @select(
// CHECK-NEXT:    %[[S:.*]] = arith.select %c, %a, %b : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    func.return %[[S]] : memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @select(%c: i1, %a: tensor<4xf32> {bufferization.access = "read"}, %b: tensor<4xf32> {bufferization.access = "read"})
// ANALYSIS:       arith.select %c, %a, %b {__inplace_operands_attr__ = ["none", "true", "true"]}

// Nothing reads the arguments afterwards: the store goes to whichever was picked.
func.func @select_written_in_place(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %i = arith.constant 2 : index
  %w = tensor.insert %v into %s[%i] : tensor<4xf32>
  return %w : tensor<4xf32>
}
// CHECK-LABEL: func.func @select_written_in_place(
// CHECK-NEXT:    %[[S:.*]] = arith.select %c, %a, %b : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %i = arith.constant 2 : index
// CHECK-NEXT:    memref.store %v, %[[S]][%i]
// CHECK-NEXT:    func.return %[[S]]
// ANALYSIS-LABEL: func.func @select_written_in_place(%c: i1, %a: tensor<4xf32> {bufferization.access = "read-write"}, %b: tensor<4xf32> {bufferization.access = "read-write"}, %v: f32)
// ANALYSIS:       tensor.insert %v into %s[%i] {__inplace_operands_attr__ = ["none", "true", "none"]}

// %a is returned as it was: the select gets a new buffer in its place (no
// copy: the fill overwrites it), cast to the argument's layout.
func.func @select_written(%a: tensor<4xf32>, %b: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = arith.constant true
  %s = arith.select %c, %a, %b : tensor<4xf32>
  %w = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  return %w, %a : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @select_written(
// CHECK-NEXT:    %c = arith.constant true
// CHECK-NEXT:    %[[N:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    %[[CAST:.*]] = {{"?}}memref.cast{{.*}}%[[N]]
// CHECK-NEXT:    %[[S:.*]] = arith.select %c, %[[CAST]], %b : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[S]] : memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %[[S]], %a
// ANALYSIS-LABEL: func.func @select_written(%a: tensor<4xf32> {bufferization.access = "read"}, %b: tensor<4xf32> {bufferization.access = "write"}, %v: f32)
// ANALYSIS:       arith.select %c, %a, %b {__inplace_operands_attr__ = ["none", "false", "true"]}
// ANALYSIS-NEXT:  linalg.fill {__inplace_operands_attr__ = ["none", "true"]}

// A global and an argument: both cast to the fully dynamic layout.
func.func @select_constant_or_argument(%c: i1, %a: tensor<3xf32>) -> tensor<3xf32> {
  %k = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = arith.select %c, %k, %a : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %n = linalg.negf ins(%s : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %n : tensor<3xf32>
}
// CHECK-LABEL: func.func @select_constant_or_argument(
// CHECK-NEXT:    %[[K:.*]] = memref.get_global @[[G3F]] : memref<3xf32>
// CHECK-NEXT:    %[[CAST:.*]] = {{"?}}memref.cast{{.*}}%[[K]]
// CHECK-NEXT:    %[[S:.*]] = arith.select %c, %[[CAST]], %a : memref<3xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %[[N:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK-NEXT:    linalg.negf ins(%[[S]] : memref<3xf32, strided<[?], offset: ?>>) outs(%[[N]] : memref<3xf32>)
// CHECK-NEXT:    func.return %[[N]] : memref<3xf32>

// Writing the select may write the constant: the constant operand is copied.
func.func @select_constant_written(%a: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant true
  %k = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = arith.select %c, %k, %a : tensor<3xf32>
  %n = linalg.negf ins(%s : tensor<3xf32>) outs(%s : tensor<3xf32>) -> tensor<3xf32>
  return %n : tensor<3xf32>
}
// CHECK-LABEL: func.func @select_constant_written(
// CHECK-NEXT:    %c = arith.constant true
// CHECK-NEXT:    %[[K:.*]] = memref.get_global @[[G3F]] : memref<3xf32>
// CHECK-NEXT:    %[[N:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK-NEXT:    memref.copy{{.*}}%[[K]], %[[N]]
// CHECK-NEXT:    %[[CAST:.*]] = {{"?}}memref.cast{{.*}}%[[N]]
// CHECK-NEXT:    %[[S:.*]] = arith.select %c, %[[CAST]], %a
// CHECK-NEXT:    linalg.negf ins(%[[S]] : {{.*}}) outs(%[[S]] : {{.*}})
// CHECK-NEXT:    func.return %[[S]]
// ANALYSIS-LABEL: func.func @select_constant_written(%a: tensor<3xf32> {bufferization.access = "read-write"})
// ANALYSIS:       arith.select %c, %k, %a {__inplace_operands_attr__ = ["none", "false", "true"]}
// ANALYSIS-NEXT:  linalg.negf {__inplace_operands_attr__ = ["true", "true"]}
