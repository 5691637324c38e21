// Static pads fold every size; a constant pad value defined inside the region
// is cloned out; any rank.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s

func.func @static_3d_const_in_region(%x: tensor<2x3x4xf32>) -> tensor<3x6x5xf32> {
  %init = tensor.empty() : tensor<2x3x4xf32>
  %e = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = math.exp %in : f32
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32>
  %p = tensor.pad %e low[1, 2, 0] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    %zero = arith.constant 0.0 : f32
    tensor.yield %zero : f32
  } : tensor<2x3x4xf32> to tensor<3x6x5xf32>
  return %p : tensor<3x6x5xf32>
}
// CHECK-LABEL: func.func @static_3d_const_in_region
// CHECK:      %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<3x6x5xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<3x6x5xf32>) -> tensor<3x6x5xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][1, 2, 0] [2, 3, 4] [1, 1, 1] : tensor<3x6x5xf32> to tensor<2x3x4xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%x : tensor<2x3x4xf32>) outs(%[[S]] : tensor<2x3x4xf32>)
// CHECK:      %[[R:.*]] = tensor.insert_slice %[[G]] into %[[F]][1, 2, 0] [2, 3, 4] [1, 1, 1] : tensor<2x3x4xf32> into tensor<3x6x5xf32>
// CHECK-NEXT: func.return %[[R]] : tensor<3x6x5xf32>
