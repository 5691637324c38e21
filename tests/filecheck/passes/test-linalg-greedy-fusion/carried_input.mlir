// A consumer input read through a slice of a loop-carried value: each
// iteration must read what the previous one wrote back, not the value the
// loop started from, so the producer of the loop's init is not fused (seed
// 001 §5.2 follows iter_args blindly; upstream's pass, like ours, leaves this
// alone). The IR is unchanged.
// RUN: xdsl-opt %s -p test-linalg-greedy-fusion | filecheck %s

// CHECK-LABEL: func.func @carried_input
#id = affine_map<(d0) -> (d0)>
func.func @carried_input(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  %empty = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (tensor<8xf32>) {
    %piece = tensor.extract_slice %acc[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %e4 = tensor.empty() : tensor<4xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%piece : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %two : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %u = tensor.insert_slice %t into %acc[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
// CHECK:          %p = linalg.generic
// CHECK:          %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %p) -> (tensor<8xf32>) {
// CHECK-NEXT:       %piece = tensor.extract_slice %acc[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK-NEXT:       %e4 = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:       %t = linalg.generic {{.*}} ins(%piece : tensor<4xf32>) outs(%e4 : tensor<4xf32>) {
