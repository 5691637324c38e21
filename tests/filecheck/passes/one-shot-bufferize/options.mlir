// The options that change what is decided or how it is written out.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true}' | filecheck %s --check-prefix=COPY
// RUN: xdsl-opt %s -p 'one-shot-bufferize' | filecheck %s --check-prefix=TENSOR-ARGS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true function-boundary-type-conversion=fully-dynamic-layout-map buffer-alignment=0}' | filecheck %s --check-prefix=DYNAMIC
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true print-conflicts=true}' | filecheck %s --check-prefix=CONFLICTS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true analysis-heuristic=top-down test-analysis-only=true}' | filecheck %s --check-prefix=TOP-DOWN

#id = affine_map<(d0) -> (d0)>
func.func @twice(%a: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.addf %x, %x : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s : tensor<8xf32>) outs(%s : tensor<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.mulf %x, %x : f32
    linalg.yield %z : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}
// copy-before-write: no analysis; the second generic writes a new buffer
// (its old contents unread, so not copied) instead of reusing %s's.
// COPY-LABEL: func.func @twice
// COPY:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// COPY:         %1 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// COPY-NOT:     memref.copy
// COPY:         ins(%0 : memref<8xf32>) outs(%1 : memref<8xf32>)
// COPY:         func.return %1 : memref<8xf32>

// Without function boundaries the signature stays on tensors: arguments
// enter through `to_buffer`, results leave through `to_tensor`.
// TENSOR-ARGS-LABEL: func.func @twice(%a: tensor<8xf32>) -> tensor<8xf32>
// TENSOR-ARGS:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// TENSOR-ARGS-NEXT:    %1 = bufferization.to_buffer %a : tensor<8xf32> to memref<8xf32, strided<[?], offset: ?>>
// TENSOR-ARGS:         %m = bufferization.to_tensor %0 restrict : memref<8xf32> to tensor<8xf32>
// TENSOR-ARGS-NEXT:    func.return %m : tensor<8xf32>

// DYNAMIC-LABEL: func.func @twice(%a: memref<8xf32, strided<[?], offset: ?>>) -> memref<8xf32, strided<[?], offset: ?>>
// DYNAMIC:         %0 = memref.alloc() : memref<8xf32>
// DYNAMIC:         %1 = "memref.cast"(%0) : (memref<8xf32>) -> memref<8xf32, strided<[?], offset: ?>>
// DYNAMIC-NEXT:    func.return %1

// No conflict here: nothing is annotated but the decisions.
// CONFLICTS-LABEL: func.func @twice
// CONFLICTS-NOT:   C_0

// TOP-DOWN-LABEL: func.func @twice
// TOP-DOWN:         __inplace_operands_attr__ = ["true", "true"]
// TOP-DOWN:         __inplace_operands_attr__ = ["true", "true"]

func.func @conflict(%a: tensor<8xf32>, %k: f32) -> (tensor<8xf32>, tensor<8xf32>) {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %k : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r, %a : tensor<8xf32>, tensor<8xf32>
}
// A write into %a while %a is returned as well: print-conflicts names the
// read (the return's operand 1), the write (the generic's operand 0) and
// the definition that the read would no longer see (argument 0).
// CONFLICTS-LABEL: func.func @conflict
// CONFLICTS-SAME:    attributes {"C_0[DEF: bbArg 0]"}
// CONFLICTS:         attrs = {"C_0[CONFL-WRITE: 0]", __inplace_operands_attr__ = ["false"]}
// CONFLICTS:         func.return {"C_0[READ: 1]", __inplace_operands_attr__ = ["true", "true"], __equivalent_func_args__ = [-1 : i64, 0 : i64]}
// COPY-LABEL: func.func @conflict
// COPY:         "memref.copy"(%a, %0)
