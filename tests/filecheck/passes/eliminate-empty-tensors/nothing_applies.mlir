// Insertions whose source does not come from a tensor.empty through updated
// inits, and one into a memref: nothing changes (`report` speaks only of the
// memref, the one insertion that has an empty to eliminate).
// RUN: xdsl-opt %s -p "eliminate-empty-tensors{report=true}" 2>&1 | filecheck %s

// CHECK:      eliminate-empty-tensors: @into_memref: bufferization.materialize_in_destination of %sq keeps its tensor.empty: the destination is a memref not marked `restrict`
// CHECK-NOT:  eliminate-empty-tensors:

#id = affine_map<(d0, d1) -> (d0, d1)>

// The source is an argument; the dest is an empty (only sources count).
// CHECK-LABEL: func.func @argument_source
func.func @argument_source(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %r = tensor.insert_slice %x into %e[0, 0] [6, 8] [1, 1] : tensor<6x8xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
// CHECK:      %e = tensor.empty() : tensor<6x8xf32>
// CHECK-NEXT: %r = tensor.insert_slice %x into %e[0, 0] [6, 8] [1, 1]

// A reshape is not an update in place of its operand: the chain stops there.
// CHECK-LABEL: func.func @through_reshape
func.func @through_reshape(%x: tensor<32xf32>, %dest: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<32xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<32xf32>) outs(%e : tensor<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<32xf32>
  %m = tensor.expand_shape %neg [[0, 1]] output_shape [4, 8] : tensor<32xf32> into tensor<4x8xf32>
  %r = tensor.insert_slice %m into %dest[2, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
// CHECK:      %e = tensor.empty() : tensor<32xf32>
// CHECK-NEXT: %neg = linalg.generic {{.*}} outs(%e : tensor<32xf32>)
// CHECK:      %r = tensor.insert_slice %m into %dest[2, 0] [4, 8] [1, 1]

// The source is an input of the generic, not its init.
// CHECK-LABEL: func.func @input_not_init
func.func @input_not_init(%x: tensor<4x8xf32>, %dest: tensor<6x8xf32>, %v: f32) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = tensor.insert_slice %sum into %dest[2, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
// CHECK:      %e = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x8xf32>)
// CHECK-NEXT: %sum = linalg.generic {{.*}} ins(%f : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>)

// The destination is a memref not marked `restrict`: some other tensor may
// be made of that buffer, so it is not read as a tensor here (as upstream).
// CHECK-LABEL: func.func @into_memref
func.func @into_memref(%x: tensor<4x8xf32>, %out: memref<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  bufferization.materialize_in_destination %sq in writable %out : (tensor<4x8xf32>, memref<4x8xf32>) -> ()
  return
}
// CHECK:      %e = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%e : tensor<4x8xf32>)
// CHECK:      bufferization.materialize_in_destination %sq in writable %out
