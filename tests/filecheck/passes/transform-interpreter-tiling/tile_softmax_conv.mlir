// tile_using_for on ops xDSL's implementation refuses: a linalg_ext.softmax
// tiled along its rows (its `dimension` 1 stays whole in every tile; 5 rows
// by 2: a partial last tile; the running max and sum it starts from are
// arguments) and a strided convolution tiled along its output
// rows and columns (the input window of an output tile is computed from the
// strides: 2*(h-1) + 3 = 2*h + 1 rows from row 2*i, for h output rows). Stock xdsl-opt runs our
// implementation too, once it has loaded our dialect.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s
// RUN: xdsl-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @softmax_rows
  func.func @softmax_rows(%x: tensor<5x8xf32>, %max: tensor<5xf32>, %acc: tensor<5xf32>) -> tensor<5x8xf32> {
    %out = tensor.empty() : tensor<5x8xf32>
    %scale = tensor.empty() : tensor<5xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<5x8xf32>)
        outs(%out, %max, %acc, %scale : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
        : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
    return %r#0 : tensor<5x8xf32>
  }
  // CHECK:      %[[R:[a-z0-9_]+]], %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[I:[0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %out, %[[M:.*]] = %max, %[[A:.*]] = %acc, %[[S:.*]] = %scale) -> (tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  // CHECK-NEXT:   %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
  // CHECK-NEXT:   %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[H]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
  // CHECK:        linalg_ext.softmax dimension(1) ins(%[[X]] : tensor<?x8xf32>)
  // CHECK:        tensor.insert_slice %{{.*}} into %[[O]][%[[I]], 0] [%[[H]], 8] [1, 1] : tensor<?x8xf32> into tensor<5x8xf32>
  // CHECK:        tensor.insert_slice %{{.*}} into %[[M]][%[[I]]] [%[[H]]] [1] : tensor<?xf32> into tensor<5xf32>
  // CHECK:      func.return %[[R]] : tensor<5x8xf32>

  // CHECK-LABEL: func.func @conv_strided
  func.func @conv_strided(%in: tensor<1x11x11x2xf32>, %filter: tensor<3x3x2x4xf32>, %init: tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32> {
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
        ins(%in, %filter : tensor<1x11x11x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
    return %r : tensor<1x5x5x4xf32>
  }
  // CHECK:      scf.for %[[OH:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %init) -> (tensor<1x5x5x4xf32>) {
  // CHECK-NEXT:   scf.for %[[OW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x5x5x4xf32>) {
  // CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[OH]])
  // CHECK-NEXT:     %[[W:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[OW]])
  // CHECK-NEXT:     %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[OH]])
  // CHECK-NEXT:     %[[ROWS:.*]] = affine.apply affine_map<(d0) -> (((d0 * 2) + 1))> (%[[H]])
  // CHECK-NEXT:     %[[COL:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[OW]])
  // CHECK-NEXT:     %[[COLS:.*]] = affine.apply affine_map<(d0) -> (((d0 * 2) + 1))> (%[[W]])
  // CHECK-NEXT:     %[[IN:.*]] = tensor.extract_slice %in[0, %[[ROW]], %[[COL]], 0] [1, %[[ROWS]], %[[COLS]], 2] [1, 1, 1, 1] : tensor<1x11x11x2xf32> to tensor<1x?x?x2xf32>
  // CHECK:          %[[OUT:.*]] = tensor.extract_slice %[[ACC]][0, %[[OH]], %[[OW]], 0] [1, %[[H]], %[[W]], 4] [1, 1, 1, 1] : tensor<1x5x5x4xf32> to tensor<1x?x?x4xf32>
  // CHECK-NEXT:     linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[IN]], %{{.*}} : tensor<1x?x?x2xf32>, tensor<3x3x2x4xf32>) outs(%[[OUT]] : tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0 = transform.structured.tile_using_for %softmax tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %conv = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1:2 = transform.structured.tile_using_for %conv tile_sizes [0, 2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
