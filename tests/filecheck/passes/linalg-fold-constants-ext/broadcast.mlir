// linalg.broadcast of a constant (a bias row repeated over the batch)
// becomes the broadcast constant (where the broadcast was: the
// tensor.empty it wrote into stays, the add uses it too).
// RUN: xdsl-opt %s -p linalg-fold-constants-ext | filecheck %s

// CHECK-LABEL: func.func @bias(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<{{\[}}[1, -2, 3], [1, -2, 3]]> : tensor<2x3xi32>
// CHECK-NEXT:    %[[R:.*]] = linalg.add ins(%x, %[[B]] : tensor<2x3xi32>, tensor<2x3xi32>) outs(%[[E]] : tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x3xi32>
func.func @bias(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %b = arith.constant dense<[1, -2, 3]> : tensor<3xi32>
  %e = tensor.empty() : tensor<2x3xi32>
  %bb = linalg.broadcast ins(%b : tensor<3xi32>) outs(%e : tensor<2x3xi32>) dimensions = [0]
  %r = linalg.add ins(%x, %bb : tensor<2x3xi32>, tensor<2x3xi32>) outs(%e : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}

// Broadcast along the inner dimension, as a generic, into a filled init.
// CHECK-LABEL: func.func @columns(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[5.000000e-01, 5.000000e-01], [-1.500000e+00, -1.500000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<2x2xf32>
func.func @columns() -> tensor<2x2xf32> {
  %c = arith.constant dense<[0.5, -1.5]> : tensor<2xf32>
  %z = arith.constant 7.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<2xf32>) outs(%f : tensor<2x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
