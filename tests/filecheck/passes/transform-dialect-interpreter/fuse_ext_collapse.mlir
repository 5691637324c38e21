// transform.structured.fuse_ext through tensor.collapse_shape: a tile of
// 8 of the 24 collapsed rows (6 x 4) is 2 whole groups of 4 source rows,
// so the collapse and the exp it reads are fused, the exp computing 2x4x5
// per tile. A tile of 5 rows is not a box of the source: the collapse (and
// so the exp) stays before the loops, whole.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @collapse(
// CHECK-SAME:      %[[X:.*]]: tensor<6x4x5xf32>)
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %e) -> (tensor<24x5xf32>) {
// CHECK-NEXT:      %[[G:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 4))> (%[[I]])
// CHECK-NEXT:      %[[XS:.*]] = tensor.extract_slice %[[X]][%[[G]], 0, 0] [2, 4, 5] [1, 1, 1] : tensor<6x4x5xf32> to tensor<2x4x5xf32>
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[XS]] : tensor<2x4x5xf32>)
// CHECK-NEXT:      %[[C:.*]] = tensor.collapse_shape %[[EXP]] {{.*}} : tensor<2x4x5xf32> into tensor<8x5xf32>
// CHECK:           linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<negf>} ins(%{{.*}} : tensor<8x5xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         func.return %[[R]] : tensor<24x5xf32>
func.func @collapse(%x: tensor<6x4x5xf32>) -> tensor<24x5xf32> {
  %e0 = tensor.empty() : tensor<6x4x5xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%x : tensor<6x4x5xf32>) outs(%e0 : tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<6x4x5xf32> into tensor<24x5xf32>
  %e = tensor.empty() : tensor<24x5xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<negf>} ins(%1 : tensor<24x5xf32>) outs(%e : tensor<24x5xf32>) -> tensor<24x5xf32>
  return %r : tensor<24x5xf32>
}

// CHECK-LABEL: func.func @collapse_unaligned(
// CHECK:         %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%{{.*}} : tensor<6x4x5xf32>)
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %[[EXP]] {{.*}} : tensor<6x4x5xf32> into tensor<24x5xf32>
// CHECK:         scf.for
// CHECK:           tensor.extract_slice %[[C]]
// CHECK-NOT:       linalg.elemwise_unary {fun
// CHECK:           linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<negf>} ins(%{{.*}} : tensor<?x5xf32>)
func.func @collapse_unaligned(%x: tensor<6x4x5xf32>) -> tensor<24x5xf32> {
  %e0 = tensor.empty() : tensor<6x4x5xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%x : tensor<6x4x5xf32>) outs(%e0 : tensor<6x4x5xf32>) -> tensor<6x4x5xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<6x4x5xf32> into tensor<24x5xf32>
  %e = tensor.empty() : tensor<24x5xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<negf>} ins(%1 : tensor<24x5xf32>) outs(%e : tensor<24x5xf32>) -> tensor<24x5xf32>
  return %r : tensor<24x5xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "collapse"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [8]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "collapse_unaligned"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [5]}
  cleanup
}
