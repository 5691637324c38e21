// A consumer reading the same tensor.expand_shape twice, whose producer has
// another consumer: expanding the producer replaces both operands, and the
// second one must be read afresh (found by the fuzzer, seed 498: it used to
// fail with an AssertionError on the erased expand_shape).
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s

func.func @expand_read_twice(%arg0: tensor<2x4xf32>) -> (tensor<2x2x2xf32>, tensor<2x4xf32>) {
  %e1 = tensor.empty() : tensor<2x4xf32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<2x4xf32>) outs(%e1 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %exp7 = tensor.expand_shape %v2 [[0], [1, 2]] output_shape [2, 2, 2] : tensor<2x4xf32> into tensor<2x2x2xf32>
  %e8 = tensor.empty() : tensor<2x4xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2 : tensor<2x4xf32>) outs(%e8 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.absf %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %e22 = tensor.empty() : tensor<2x2x2xf32>
  %v23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp7, %exp7 : tensor<2x2x2xf32>, tensor<2x2x2xf32>) outs(%e22 : tensor<2x2x2xf32>) {
  ^bb0(%a24: f32, %b25: f32, %o26: f32):
    %r27 = arith.addf %a24, %b25 : f32
    linalg.yield %r27 : f32
  } -> tensor<2x2x2xf32>
  func.return %v23, %v9 : tensor<2x2x2xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @expand_read_twice(
// CHECK:         %[[IN:.*]] = tensor.expand_shape %arg0 {{\[}}[0 : i64], [1 : i64, 2 : i64]] output_shape [2, 2, 2]
// CHECK:         %[[NEG:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<2x2x2xf32>)
// CHECK:           arith.negf
// CHECK:         %[[BACK:.*]] = tensor.collapse_shape %[[NEG]]
// CHECK:         %[[ABS:.*]] = linalg.generic {{.*}} ins(%[[BACK]] : tensor<2x4xf32>)
// CHECK:           math.absf
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[NEG]], %[[NEG]] : tensor<2x2x2xf32>, tensor<2x2x2xf32>)
// CHECK:           arith.addf
// CHECK:         func.return %[[SUM]], %[[ABS]]
