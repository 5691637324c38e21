// A producer whose result is also returned stays (for that use) and is
// computed per tile inside the loops too. A root the options do not fit (a
// 1-D op given two sizes) is left as it is.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2,4}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @other_uses
func.func @other_uses(%x: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %empty = tensor.empty() : tensor<6x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x8xf32>) outs(%empty : tensor<6x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<6x8xf32>
  %square = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%neg : tensor<6x8xf32>) outs(%empty : tensor<6x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<6x8xf32>
  return %neg, %square : tensor<6x8xf32>, tensor<6x8xf32>
}
// CHECK:       %neg = linalg.generic
// CHECK:       arith.negf
// CHECK:       %square = scf.for
// CHECK:         scf.for
// CHECK:           %[[N:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<2x4xf32>)
// CHECK:           arith.negf
// CHECK:           } -> tensor<2x4xf32>
// CHECK-NEXT:      %[[D:.*]] = tensor.extract_slice
// CHECK-NEXT:      linalg.generic {{.*}} ins(%[[N]] : tensor<2x4xf32>) outs(%[[D]] : tensor<2x4xf32>)
// CHECK:       func.return %neg, %square : tensor<6x8xf32>, tensor<6x8xf32>

// CHECK-LABEL: func.func @not_fitting
func.func @not_fitting(%x: tensor<6xf32>) -> tensor<6xf32> {
  %empty = tensor.empty() : tensor<6xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<6xf32>) outs(%empty : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<6xf32>
  return %neg : tensor<6xf32>
}
// CHECK-NOT:   scf.for
// CHECK:       %neg = linalg.generic
// CHECK-NEXT:  ^bb0
