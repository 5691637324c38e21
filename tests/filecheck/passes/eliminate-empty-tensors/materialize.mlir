// bufferization.materialize_in_destination: the whole dest stands for the
// empty (no slice to build); a memref dest marked `restrict` is read as a
// tensor, the `restrict` moving to that `to_tensor`.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @into_dest
func.func @into_dest(%x: tensor<4x8xf32>, %dest: tensor<4x8xf32>, %v: f32) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %filled = linalg.fill ins(%v : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%filled : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = bufferization.materialize_in_destination %sum in %dest : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %filled = linalg.fill ins(%v : f32) outs(%dest : tensor<4x8xf32>)
// CHECK-NEXT: %sum = linalg.generic {{.*}} outs(%filled : tensor<4x8xf32>)
// CHECK:      %r = bufferization.materialize_in_destination %sum in %dest

// Dynamic shapes.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x?xf32>, %dest: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tensor.dim %x, %c0 : tensor<?x?xf32>
  %w = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%h, %w) : tensor<?x?xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<?x?xf32>
  %r = bufferization.materialize_in_destination %neg in %dest : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %neg = linalg.generic {{.*}} outs(%dest : tensor<?x?xf32>)
// CHECK:      %r = bufferization.materialize_in_destination %neg in %dest

// CHECK-LABEL: func.func @into_restrict_memref
func.func @into_restrict_memref(%x: tensor<4x8xf32>, %out: memref<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  bufferization.materialize_in_destination %sq in restrict writable %out : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  return
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[T:.*]] = bufferization.to_tensor %out restrict writable : memref<4x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[T]] : tensor<4x8xf32>)
// CHECK:      bufferization.materialize_in_destination %sq in writable %out : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
