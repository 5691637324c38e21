// Tensor ops tiled and fused. A tensor.pad (low [3, 1], high [1, 1]) tiled
// alone and fused into an exp, its source a negf: each tile reads only the
// rows of the source it covers (offset max(i - 3, 0) clamped to 5, the
// source slice never out of bounds) and pads the rest; with 3-row tiles the
// first tile lies entirely in the low border and reads no source row. The
// negf is computed on the source slice only. A tensor.expand_shape (12 rows
// into 4x3) is tiled along the outer dimension of its group, 3 rows of 4 (a
// partial tile), reading 3*3 rows of its source. A tensor.collapse_shape
// (4x3 into 12 rows) fused into an exp tiled by rows: a row tile is a slice
// of the source only when it is a multiple of the inner extent 3 (`3`: one
// source row per tile; `9`: three, the last tile clamped to one); 4-row
// tiles (`4,3`) are not, and the collapse stays before the loops.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=3}' | filecheck %s --check-prefix=ROWS
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=9}' | filecheck %s --check-prefix=NINE

// CHECK-LABEL: func.func @pad_alone
// ROWS-LABEL: func.func @pad_alone
func.func @pad_alone(%x: tensor<5x6xf32>, %v: f32) -> tensor<9x8xf32> {
  %p = tensor.pad %x low[3, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<5x6xf32> to tensor<9x8xf32>
  return %p : tensor<9x8xf32>
}
// CHECK:          %[[INIT:.*]] = tensor.empty() : tensor<9x8xf32>
// CHECK:          %p = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %[[INIT]]) -> (tensor<9x8xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<9x8xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 9), 4)> (%[[I]])
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 8), 3)> (%[[J]])
// CHECK-NEXT:         %[[R0:.*]] = affine.max affine_map<(d0) -> ((d0 + -3), 0)>(%[[I]])
// CHECK-NEXT:         %[[ROW:.*]] = affine.min affine_map<(d0) -> (d0, 5)> (%[[R0]])
// CHECK:              %[[C0:.*]] = affine.max affine_map<(d0) -> ((d0 + -1), 0)>(%[[J]])
// CHECK-NEXT:         %[[COL:.*]] = affine.min affine_map<(d0) -> (d0, 6)> (%[[C0]])
// CHECK:              %[[SRC:.*]] = tensor.extract_slice %x[%[[ROW]], %[[COL]]] [%{{.*}}, %{{.*}}] [1, 1] : tensor<5x6xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[PAD:.*]] = tensor.pad %[[SRC]] low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}] {
// CHECK:                tensor.yield %v : f32
// CHECK-NEXT:         } : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[PAD]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<9x8xf32>
// ROWS:           %p = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<9x8xf32>) {
// ROWS-NEXT:        %[[R0:.*]] = affine.max affine_map<(d0) -> ((d0 + -3), 0)>(%[[I]])
// ROWS-NEXT:        %[[ROW:.*]] = affine.min affine_map<(d0) -> (d0, 5)> (%[[R0]])
// ROWS:             %[[SRC:.*]] = tensor.extract_slice %x[%[[ROW]], 0] [%{{.*}}, 6] [1, 1] : tensor<5x6xf32> to tensor<?x6xf32>
// ROWS-NEXT:        %[[PAD:.*]] = tensor.pad %[[SRC]] low[%{{.*}}, 1] high[%{{.*}}, 1] {
// ROWS:             } : tensor<?x6xf32> to tensor<?x8xf32>
// ROWS-NEXT:        %[[CAST:.*]] = tensor.cast %[[PAD]] : tensor<?x8xf32> to tensor<3x8xf32>
// ROWS-NEXT:        tensor.insert_slice %[[CAST]] into %[[ACC]][%[[I]], 0] [3, 8] [1, 1] : tensor<3x8xf32> into tensor<9x8xf32>

// CHECK-LABEL: func.func @exp_of_pad_of_neg
// ROWS-LABEL: func.func @exp_of_pad_of_neg
func.func @exp_of_pad_of_neg(%x: tensor<5x6xf32>, %v: f32) -> tensor<9x8xf32> {
  %e = tensor.empty() : tensor<5x6xf32>
  %n = linalg.negf ins(%x : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
  %p = tensor.pad %n low[3, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<5x6xf32> to tensor<9x8xf32>
  %o = tensor.empty() : tensor<9x8xf32>
  %r = linalg.exp ins(%p : tensor<9x8xf32>) outs(%o : tensor<9x8xf32>) -> tensor<9x8xf32>
  return %r : tensor<9x8xf32>
}
// CHECK-NOT:      linalg.negf
// CHECK-NOT:      tensor.pad
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %o) -> (tensor<9x8xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<9x8xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 9), 4)> (%[[I]])
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 8), 3)> (%[[J]])
// CHECK:              %[[SRC:.*]] = tensor.extract_slice %x[%[[ROW:.*]], %[[COL:.*]]] [%[[H:.*]], %[[W:.*]]] [1, 1] : tensor<5x6xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[H]], %[[W]]) : tensor<?x?xf32>
// CHECK-NEXT:         %[[N:.*]] = linalg.negf ins(%[[SRC]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[PAD:.*]] = tensor.pad %[[N]] low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}] {
// CHECK:              } : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<9x8xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.exp ins(%[[PAD]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<9x8xf32>
// ROWS-NOT:       linalg.negf
// ROWS-NOT:       tensor.pad
// ROWS:           %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<9x8xf32>) {
// ROWS:             %[[N:.*]] = linalg.negf ins(%{{.*}} : tensor<?x6xf32>) outs(%{{.*}} : tensor<?x6xf32>) -> tensor<?x6xf32>
// ROWS-NEXT:        %[[PAD:.*]] = tensor.pad %[[N]] low[%{{.*}}, 1] high[%{{.*}}, 1] {
// ROWS:             } : tensor<?x6xf32> to tensor<?x8xf32>
// ROWS-NEXT:        %[[CAST:.*]] = tensor.cast %[[PAD]] : tensor<?x8xf32> to tensor<3x8xf32>
// ROWS-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [3, 8] [1, 1] : tensor<9x8xf32> to tensor<3x8xf32>
// ROWS-NEXT:        linalg.exp ins(%[[CAST]] : tensor<3x8xf32>) outs(%[[D]] : tensor<3x8xf32>) -> tensor<3x8xf32>

// CHECK-LABEL: func.func @expand_of_neg
// ROWS-LABEL: func.func @expand_of_neg
func.func @expand_of_neg(%x: tensor<12x5xf32>) -> tensor<4x3x5xf32> {
  %e = tensor.empty() : tensor<12x5xf32>
  %n = linalg.negf ins(%x : tensor<12x5xf32>) outs(%e : tensor<12x5xf32>) -> tensor<12x5xf32>
  %r = tensor.expand_shape %n [[0, 1], [2]] output_shape [4, 3, 5] : tensor<12x5xf32> into tensor<4x3x5xf32>
  return %r : tensor<4x3x5xf32>
}
// `4,3` would tile the inner dimension of the group: left as it is.
// CHECK-NOT:      scf.for
// CHECK:          %n = linalg.negf
// CHECK-NEXT:     %r = tensor.expand_shape %n
// ROWS-NOT:       linalg.negf
// ROWS:           %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<4x3x5xf32>) {
// ROWS-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 4), 3)> (%[[I]])
// ROWS-NEXT:        %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 * 3))> (%[[I]])
// ROWS-NEXT:        %[[NR:.*]] = affine.apply affine_map<(d0) -> ((d0 * 3))> (%[[SI]])
// ROWS-NEXT:        %[[X:.*]] = tensor.extract_slice %x[%[[ROW]], 0] [%[[NR]], 5] [1, 1] : tensor<12x5xf32> to tensor<?x5xf32>
// ROWS-NEXT:        %[[E:.*]] = tensor.empty(%[[NR]]) : tensor<?x5xf32>
// ROWS-NEXT:        %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x5xf32>) outs(%[[E]] : tensor<?x5xf32>) -> tensor<?x5xf32>
// ROWS-NEXT:        %[[T:.*]] = tensor.expand_shape %[[N]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [%[[SI]], 3, 5] : tensor<?x5xf32> into tensor<?x3x5xf32>
// ROWS-NEXT:        tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], 0, 0] [%[[SI]], 3, 5] [1, 1, 1] : tensor<?x3x5xf32> into tensor<4x3x5xf32>

// CHECK-LABEL: func.func @exp_of_collapse
// ROWS-LABEL: func.func @exp_of_collapse
// NINE-LABEL: func.func @exp_of_collapse
func.func @exp_of_collapse(%x: tensor<4x3x5xf32>) -> tensor<12x5xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x3x5xf32> into tensor<12x5xf32>
  %o = tensor.empty() : tensor<12x5xf32>
  %r = linalg.exp ins(%c : tensor<12x5xf32>) outs(%o : tensor<12x5xf32>) -> tensor<12x5xf32>
  return %r : tensor<12x5xf32>
}
// CHECK:          %c = tensor.collapse_shape %x
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:              %[[C:.*]] = tensor.extract_slice %c[%[[I]], %[[J]]] [4, %{{.*}}] [1, 1] : tensor<12x5xf32> to tensor<4x?xf32>
// CHECK-NOT:          tensor.collapse_shape
// CHECK:              linalg.exp ins(%[[C]] : tensor<4x?xf32>)
// ROWS-NOT:       tensor.collapse_shape
// ROWS:           %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<12x5xf32>) {
// ROWS-NEXT:        %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 3))> (%[[I]])
// ROWS-NEXT:        %[[X:.*]] = tensor.extract_slice %x[%[[ROW]], 0, 0] [1, 3, 5] [1, 1, 1] : tensor<4x3x5xf32> to tensor<1x3x5xf32>
// ROWS-NEXT:        %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<1x3x5xf32> into tensor<3x5xf32>
// ROWS-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [3, 5] [1, 1] : tensor<12x5xf32> to tensor<3x5xf32>
// ROWS-NEXT:        linalg.exp ins(%[[C]] : tensor<3x5xf32>) outs(%[[D]] : tensor<3x5xf32>) -> tensor<3x5xf32>
// NINE-NOT:       tensor.collapse_shape
// NINE:           %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<12x5xf32>) {
// NINE-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 9)> (%[[I]])
// NINE-NEXT:        %[[ROW:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 3))> (%[[I]])
// NINE-NEXT:        %[[NR:.*]] = affine.apply affine_map<(d0) -> ((d0 floordiv 3))> (%[[SI]])
// NINE-NEXT:        %[[X:.*]] = tensor.extract_slice %x[%[[ROW]], 0, 0] [%[[NR]], 3, 5] [1, 1, 1] : tensor<4x3x5xf32> to tensor<?x3x5xf32>
// NINE-NEXT:        %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<?x3x5xf32> into tensor<?x5xf32>
// NINE-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], 5] [1, 1] : tensor<12x5xf32> to tensor<?x5xf32>
// NINE-NEXT:        linalg.exp ins(%[[C]] : tensor<?x5xf32>) outs(%[[D]] : tensor<?x5xf32>) -> tensor<?x5xf32>
