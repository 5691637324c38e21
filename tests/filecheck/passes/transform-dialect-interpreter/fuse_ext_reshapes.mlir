// transform.structured.fuse_ext through tensor.pad and tensor.expand_shape:
// the pad's tile is a pad of the tile of its source that the root's tile
// reads (clamped to the source, the rest padded: low/high per tile), its
// producer fused behind it; an expand_shape's tile is the expand of the
// matching tile of its source.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @pad(
// CHECK-SAME:      %[[X:.*]]: tensor<10x14xf32>)
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor.pad
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<12x16xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<12x16xf32>) {
// CHECK:             %[[XS:.*]] = tensor.extract_slice %[[X]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<10x14xf32> to tensor<?x?xf32>
// CHECK-NEXT:        %[[ES:.*]] = tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[XS]] : tensor<?x?xf32>) outs(%[[ES]] : tensor<?x?xf32>)
// CHECK-NEXT:        %[[P:.*]] = tensor.pad %[[EXP]] low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}] {
// CHECK:             } : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:        %[[PT:.*]] = tensor.cast %[[P]] : tensor<?x?xf32> to tensor<4x8xf32>
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [4, 8] [1, 1]
// CHECK-NEXT:        linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%[[PT]] : tensor<4x8xf32>) outs(%[[OUT]] : tensor<4x8xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         func.return %[[R]] : tensor<12x16xf32>
func.func @pad(%x: tensor<10x14xf32>) -> tensor<12x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<10x14xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%x : tensor<10x14xf32>) outs(%e0 : tensor<10x14xf32>) -> tensor<10x14xf32>
  %p = tensor.pad %0 low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<10x14xf32> to tensor<12x16xf32>
  %e = tensor.empty() : tensor<12x16xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%p : tensor<12x16xf32>) outs(%e : tensor<12x16xf32>) -> tensor<12x16xf32>
  return %r : tensor<12x16xf32>
}

// The root tiled 2 x 2 (of 4) x 8: the abs computes 2 rows x 16 columns
// (2 groups of 8) per tile, at column 8 * j.
// CHECK-LABEL: func.func @expand(
// CHECK-SAME:      %[[X:.*]]: tensor<8x32xf32>)
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<8x4x8xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<8x4x8xf32>) {
// CHECK-NEXT:        %[[COL:.*]] = affine.apply affine_map<(d0) -> ((d0 * 8))> (%[[J]])
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[COL]]] [2, 16] [1, 1] : tensor<8x32xf32> to tensor<2x16xf32>
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[ABS:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<abs>} ins(%[[XS]] : tensor<2x16xf32>)
// CHECK-NEXT:        %[[EX:.*]] = tensor.expand_shape %[[ABS]] {{.*}} : tensor<2x16xf32> into tensor<2x2x8xf32>
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]], 0] [2, 2, 8] [1, 1, 1]
// CHECK-NEXT:        linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<sqrt>} ins(%[[EX]] : tensor<2x2x8xf32>) outs(%[[OUT]] : tensor<2x2x8xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         func.return %[[R]] : tensor<8x4x8xf32>
func.func @expand(%x: tensor<8x32xf32>) -> tensor<8x4x8xf32> {
  %e0 = tensor.empty() : tensor<8x32xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<abs>} ins(%x : tensor<8x32xf32>) outs(%e0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [8, 4, 8] : tensor<8x32xf32> into tensor<8x4x8xf32>
  %e = tensor.empty() : tensor<8x4x8xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<sqrt>} ins(%1 : tensor<8x4x8xf32>) outs(%e : tensor<8x4x8xf32>) -> tensor<8x4x8xf32>
  return %r : tensor<8x4x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "pad"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 8]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "expand"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 2, 0]}
  cleanup
}
