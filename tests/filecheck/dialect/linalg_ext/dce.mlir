// Memory effects: an unused op on tensors is dead and `dce` removes it; on
// memrefs it writes its outputs and stays. A body with an op of unknown
// effects keeps even the tensor form alive.
// RUN: xdsl-opt --allow-unregistered-dialect -p dce %s | filecheck %s

// CHECK-LABEL: func.func @dead_tensor_ops
// CHECK-NEXT:    func.return
func.func @dead_tensor_ops(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %d: tensor<4x4xf32>,
                           %a: tensor<2x4x8xf32>, %b: tensor<2x8x3xf32>, %c: tensor<2x4x3xf32>) {
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  %g = linalg_ext.diag ins(%v : tensor<4xf32>) outs(%d : tensor<4x4xf32>) : tensor<4x4xf32>
  %p = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x3xf32>) outs(%c : tensor<2x4x3xf32>) layout = "nn"
  %q:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x8xf32>) outs(%x, %m : tensor<4x8xf32>, tensor<4xf32>) {
  ^bb0(%r: f32, %e: f32):
    %n = arith.addf %r, %e : f32
    linalg_ext.yield %n : f32
  } -> tensor<4x8xf32>, tensor<4xf32>
  return
}

// CHECK-LABEL: func.func @memref_ops_stay
// CHECK-NEXT:    linalg_ext.diag
// CHECK-NEXT:    linalg_ext.batch_matmul
// CHECK-NEXT:    func.return
func.func @memref_ops_stay(%v: memref<4xf32>, %d: memref<4x4xf32>, %a: memref<2x4x8xf32>, %b: memref<2x8x3xf32>, %c: memref<2x4x3xf32>) {
  linalg_ext.diag ins(%v : memref<4xf32>) outs(%d : memref<4x4xf32>)
  linalg_ext.batch_matmul ins(%a, %b : memref<2x4x8xf32>, memref<2x8x3xf32>) outs(%c : memref<2x4x3xf32>) layout = "nn"
  return
}

// CHECK-LABEL: func.func @unknown_body_stays
// CHECK-NEXT:    linalg_ext.custom
func.func @unknown_body_stays(%o: tensor<4xf32>) {
  %r = linalg_ext.custom outs(%o : tensor<4xf32>) {
  ^bb0(%t: tensor<4xf32>):
    %c = "vendor.call"(%t) : (tensor<4xf32>) -> tensor<4xf32>
    linalg_ext.yield %c : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
