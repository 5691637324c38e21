// A convolution with strides (2, 3) and dilations (2, 1), its input a relu,
// and a max pooling with strides 2, its input an exp; both inits are fills.
// Tiled `0,2,3` (the conv's loops are (n, oh, ow, f, kh, kw, c): output rows
// and columns, extents 5 and 5; the pool's (n, c, oh, ow, kh, kw): channels
// and output rows, extents 3 and 5; partial tiles everywhere), each tile
// reads the input window it needs, computed from
// the strides, dilations and window extents: for h output rows from row oh,
// the conv reads 2*(h-1) + 2*(3-1) + 1 = 2*h + 3 input rows from row 2*oh,
// and for w columns from column ow, 3*(w-1) + 2 = 3*w - 1 from column 3*ow;
// the pool reads 2*h + 1 rows from 2*oh. The producers are computed on those
// windows inside the loops, and so are the fills (all loops parallel).
// Tiled along the first window loop instead (`0,0,0,0,1`: kh for the conv,
// the window rows for the pool; a reduction), the fills stay before the loop
// and each step reads the rows its window row touches.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=0,2,3}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=0,0,0,0,1}' | filecheck %s --check-prefix=WIN

// CHECK-LABEL: func.func @conv_of_relu
// WIN-LABEL: func.func @conv_of_relu
func.func @conv_of_relu(%in: tensor<1x13x14x2xf32>, %filter: tensor<3x2x2x4xf32>) -> tensor<1x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<1x13x14x2xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : tensor<1x13x14x2xf32>) outs(%ei : tensor<1x13x14x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x13x14x2xf32>
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
      ins(%relu, %filter : tensor<1x13x14x2xf32>, tensor<3x2x2x4xf32>) outs(%f : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  return %r : tensor<1x5x5x4xf32>
}
// CHECK-NOT:      linalg
// CHECK:          %r = scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_H:.*]] = %e) -> (tensor<1x5x5x4xf32>) {
// CHECK-NEXT:       scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_H]]) -> (tensor<1x5x5x4xf32>) {
// CHECK-NEXT:         %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[OH]])
// CHECK-NEXT:         %[[W:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[OW]])
// CHECK-NEXT:         %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[OH]])
// CHECK-NEXT:         %[[ROWS:.*]] = affine.apply affine_map<(d0) -> (((d0 * 2) + 3))> (%[[H]])
// CHECK-NEXT:         %[[COL:.*]] = affine.apply affine_map<(d0) -> ((d0 * 3))> (%[[OW]])
// CHECK-NEXT:         %[[COLS:.*]] = affine.apply affine_map<(d0) -> (((d0 * 3) + -1))> (%[[W]])
// CHECK-NEXT:         %[[IN:.*]] = tensor.extract_slice %in[0, %[[ROW]], %[[COL]], 0] [1, %[[ROWS]], %[[COLS]], 2] [1, 1, 1, 1] : tensor<1x13x14x2xf32> to tensor<1x?x?x2xf32>
// CHECK-NEXT:         %[[EI:.*]] = tensor.empty(%[[ROWS]], %[[COLS]]) : tensor<1x?x?x2xf32>
// CHECK-NEXT:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<1x?x?x2xf32>) outs(%[[EI]] : tensor<1x?x?x2xf32>) {
// CHECK:              arith.maximumf
// CHECK:            } -> tensor<1x?x?x2xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][0, %[[OH]], %[[OW]], 0] [1, %[[H]], %[[W]], 4] [1, 1, 1, 1] : tensor<1x5x5x4xf32> to tensor<1x?x?x4xf32>
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[D]] : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>} ins(%[[RELU]], %filter : tensor<1x?x?x2xf32>, tensor<3x2x2x4xf32>) outs(%[[F]] : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][0, %[[OH]], %[[OW]], 0] [1, %[[H]], %[[W]], 4] [1, 1, 1, 1] : tensor<1x?x?x4xf32> into tensor<1x5x5x4xf32>
// WIN:            %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
// WIN-NOT:        linalg
// WIN:            %r = scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %f) -> (tensor<1x5x5x4xf32>) {
// WIN-NEXT:         %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[KH]])
// WIN-NEXT:         %[[IN:.*]] = tensor.extract_slice %in[0, %[[ROW]], 0, 0] [1, 9, 14, 2] [1, 1, 1, 1] : tensor<1x13x14x2xf32> to tensor<1x9x14x2xf32>
// WIN-NEXT:         %[[EI:.*]] = tensor.empty() : tensor<1x9x14x2xf32>
// WIN-NEXT:         %[[RELU:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<1x9x14x2xf32>) outs(%[[EI]] : tensor<1x9x14x2xf32>) {
// WIN:              } -> tensor<1x9x14x2xf32>
// WIN-NEXT:         %[[FILTER:.*]] = tensor.extract_slice %filter[%[[KH]], 0, 0, 0] [1, 2, 2, 4] [1, 1, 1, 1] : tensor<3x2x2x4xf32> to tensor<1x2x2x4xf32>
// WIN-NEXT:         %[[T:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[RELU]], %[[FILTER]] : tensor<1x9x14x2xf32>, tensor<1x2x2x4xf32>) outs(%[[ACC]] : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
// WIN-NEXT:         scf.yield %[[T]] : tensor<1x5x5x4xf32>

// CHECK-LABEL: func.func @max_pool_of_exp
// WIN-LABEL: func.func @max_pool_of_exp
func.func @max_pool_of_exp(%in: tensor<1x3x11x9xf32>) -> tensor<1x3x5x4xf32> {
  %lowest = arith.constant -3.4e38 : f32
  %ei = tensor.empty() : tensor<1x3x11x9xf32>
  %x = linalg.exp ins(%in : tensor<1x3x11x9xf32>) outs(%ei : tensor<1x3x11x9xf32>) -> tensor<1x3x11x9xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x3x5x4xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x3x5x4xf32>) -> tensor<1x3x5x4xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<1x3x11x9xf32>, tensor<3x3xf32>) outs(%f : tensor<1x3x5x4xf32>) -> tensor<1x3x5x4xf32>
  return %r : tensor<1x3x5x4xf32>
}
// The pool's loops are (n, c, oh, ow, kh, kw): `0,2,3` tiles the channels and
// the output rows.
// CHECK-NOT:      linalg
// CHECK:          %r = scf.for %[[C:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_C:.*]] = %e) -> (tensor<1x3x5x4xf32>) {
// CHECK-NEXT:       scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_C]]) -> (tensor<1x3x5x4xf32>) {
// CHECK-NEXT:         %[[SC:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[C]])
// CHECK-NEXT:         %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[OH]])
// CHECK-NEXT:         %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[OH]])
// CHECK-NEXT:         %[[ROWS:.*]] = affine.apply affine_map<(d0) -> (((d0 * 2) + 1))> (%[[H]])
// CHECK-NEXT:         %[[IN:.*]] = tensor.extract_slice %in[0, %[[C]], %[[ROW]], 0] [1, %[[SC]], %[[ROWS]], 9] [1, 1, 1, 1] : tensor<1x3x11x9xf32> to tensor<1x?x?x9xf32>
// CHECK-NEXT:         %[[EI:.*]] = tensor.empty(%[[SC]], %[[ROWS]]) : tensor<1x?x?x9xf32>
// CHECK-NEXT:         %[[X:.*]] = linalg.exp ins(%[[IN]] : tensor<1x?x?x9xf32>) outs(%[[EI]] : tensor<1x?x?x9xf32>) -> tensor<1x?x?x9xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][0, %[[C]], %[[OH]], 0] [1, %[[SC]], %[[H]], 4] [1, 1, 1, 1] : tensor<1x3x5x4xf32> to tensor<1x?x?x4xf32>
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%lowest : f32) outs(%[[D]] : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.pooling_nchw_max {{.*}} ins(%[[X]], %window : tensor<1x?x?x9xf32>, tensor<3x3xf32>) outs(%[[F]] : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][0, %[[C]], %[[OH]], 0] [1, %[[SC]], %[[H]], 4] [1, 1, 1, 1] : tensor<1x?x?x4xf32> into tensor<1x3x5x4xf32>
// WIN:            %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x3x5x4xf32>) -> tensor<1x3x5x4xf32>
// WIN-NOT:        linalg
// WIN:            %r = scf.for %[[KH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %f) -> (tensor<1x3x5x4xf32>) {
// WIN-NEXT:         %[[IN:.*]] = tensor.extract_slice %in[0, 0, %[[KH]], 0] [1, 3, 9, 9] [1, 1, 1, 1] : tensor<1x3x11x9xf32> to tensor<1x3x9x9xf32>
// WIN-NEXT:         %[[EI:.*]] = tensor.empty() : tensor<1x3x9x9xf32>
// WIN-NEXT:         %[[X:.*]] = linalg.exp ins(%[[IN]] : tensor<1x3x9x9xf32>) outs(%[[EI]] : tensor<1x3x9x9xf32>) -> tensor<1x3x9x9xf32>
// WIN-NEXT:         %[[WROW:.*]] = tensor.empty() : tensor<1x3xf32>
// WIN-NEXT:         %[[T:.*]] = linalg.pooling_nchw_max {{.*}} ins(%[[X]], %[[WROW]] : tensor<1x3x9x9xf32>, tensor<1x3xf32>) outs(%[[ACC]] : tensor<1x3x5x4xf32>) -> tensor<1x3x5x4xf32>
// WIN-NEXT:         scf.yield %[[T]] : tensor<1x3x5x4xf32>
