// Reshapes as the root of transform.structured.fuse_ext, and a reshape
// between two fused ops. The loops of a reshape are those of its expanded
// side (an expand_shape's result dimensions, a collapse_shape's source
// dimensions): expand_shape tiled 2 x (4 of 8) groups reads 2 x 16 of its
// source per tile; collapse_shape tiled 8 rows x 2 of its middle source
// dimension writes 8 x 4 of its result at column 2 * j. A batch_matmul
// whose result is expanded then transposed: its tile (one batch, 4 rows,
// all 32 columns) and its fill are fused into the transpose's loops.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @expand_root(
// CHECK-SAME:      %[[X:.*]]: tensor<4x6x32xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<4x6x8x4xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x6x8x4xf32>) {
// CHECK-NEXT:        %[[COL:.*]] = affine.apply affine_map<(d0) -> ((d0 * 4))> (%[[J]])
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[COL]]] [2, 6, 16] [1, 1, 1]
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[U:.*]] = linalg.elemwise_unary ins(%[[XS]] : tensor<2x6x16xf32>)
// CHECK-NEXT:        %[[EX:.*]] = tensor.expand_shape %[[U]] {{.*}} output_shape [2, 6, 4, 4] : tensor<2x6x16xf32> into tensor<2x6x4x4xf32>
// CHECK-NEXT:        tensor.insert_slice %[[EX]] into %[[ACC]][%[[I]], 0, %[[J]], 0] [2, 6, 4, 4] [1, 1, 1, 1]
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<4x6x8x4xf32>
func.func @expand_root(%arg0: tensor<4x6x32xf32>) -> tensor<4x6x8x4xf32> {
  %empty = tensor.empty() : tensor<4x6x32xf32>
  %0 = linalg.elemwise_unary ins(%arg0 : tensor<4x6x32xf32>) outs(%empty: tensor<4x6x32xf32>) -> tensor<4x6x32xf32>
  %expanded = tensor.expand_shape %0 [[0], [1], [2, 3]] output_shape [4, 6, 8, 4] {__root__} : tensor<4x6x32xf32> into tensor<4x6x8x4xf32>
  return %expanded : tensor<4x6x8x4xf32>
}

// CHECK-LABEL: func.func @collapse_root(
// CHECK-SAME:      %[[X:.*]]: tensor<16x1x4x2xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x8xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16x8xf32>) {
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[J]], 0] [8, 1, 2, 2] [1, 1, 1, 1]
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[U:.*]] = linalg.elemwise_unary ins(%[[XS]] : tensor<8x1x2x2xf32>)
// CHECK-NEXT:        %[[C:.*]] = tensor.collapse_shape %[[U]] {{.*}} : tensor<8x1x2x2xf32> into tensor<8x4xf32>
// CHECK-NEXT:        %[[COL:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%[[J]])
// CHECK-NEXT:        tensor.insert_slice %[[C]] into %[[ACC]][%[[I]], %[[COL]]] [8, 4] [1, 1]
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<16x8xf32>
func.func @collapse_root(%arg0: tensor<16x1x4x2xf32>) -> tensor<16x8xf32> {
  %empty = tensor.empty() : tensor<16x1x4x2xf32>
  %0 = linalg.elemwise_unary ins(%arg0 : tensor<16x1x4x2xf32>) outs(%empty: tensor<16x1x4x2xf32>) -> tensor<16x1x4x2xf32>
  %collapsed = tensor.collapse_shape %0 [[0], [1, 2, 3]] {__root__} : tensor<16x1x4x2xf32> into tensor<16x8xf32>
  return %collapsed : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @bmm_expand_transpose(
// CHECK-SAME:      %[[A:.*]]: tensor<2x8x4xf32>, %[[B:.*]]: tensor<2x4x32xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<2x4x8x8xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<2x4x8x8xf32>) {
// CHECK-NEXT:        %[[AS:.*]] = tensor.extract_slice %[[A]][%[[N]], %[[I]], 0] [1, 4, 4] [1, 1, 1]
// CHECK-NEXT:        %[[BS:.*]] = tensor.extract_slice %[[B]][%[[N]], 0, 0] [1, 4, 32] [1, 1, 1]
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x32xf32>)
// CHECK-NEXT:        %[[M:.*]] = linalg.batch_matmul ins(%[[AS]], %[[BS]] : tensor<1x4x4xf32>, tensor<1x4x32xf32>) outs(%[[F]] : tensor<1x4x32xf32>)
// CHECK-NEXT:        %[[EX:.*]] = tensor.expand_shape %[[M]] {{.*}} : tensor<1x4x32xf32> into tensor<1x4x4x8xf32>
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[N]], 0, %[[I]], 0] [1, 4, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT:        linalg.transpose ins(%[[EX]] : tensor<1x4x4x8xf32>) outs(%[[OUT]] : tensor<1x4x4x8xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<2x4x8x8xf32>
func.func @bmm_expand_transpose(%a: tensor<2x8x4xf32>, %b: tensor<2x4x32xf32>) -> tensor<2x4x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<2x8x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %2 = linalg.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x4x32xf32>) outs(%1 : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %e = tensor.expand_shape %2 [[0], [1], [2, 3]] output_shape [2, 8, 4, 8] : tensor<2x8x32xf32> into tensor<2x8x4x8xf32>
  %3 = tensor.empty() : tensor<2x4x8x8xf32>
  %t = linalg.transpose ins(%e : tensor<2x8x4x8xf32>) outs(%3 : tensor<2x4x8x8xf32>) permutation = [0, 2, 1, 3] {__root__}
  return %t : tensor<2x4x8x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "expand_root"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_interchange = [], tile_sizes = [2, 0, 4]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "collapse_root"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_interchange = [], tile_sizes = [8, 0, 2]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "bmm_expand_transpose"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_interchange = [], tile_sizes = [1, 0, 4]}
  cleanup
}
