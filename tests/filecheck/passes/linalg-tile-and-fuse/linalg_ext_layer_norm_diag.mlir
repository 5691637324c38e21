// linalg_ext.layer_norm (normalised along its last axis) and linalg_ext.diag
// (a batch of 3 diagonal 5x5 matrices), each with an elementwise producer.
// `tile-sizes=2,3` tiles the layer_norm's two leading loops (3x5 by 2x3,
// partial tiles; the axis stays whole; weight and bias are read whole; mean
// and rstd are written at their own rank) and the diag's batch and row
// loops: rows cut apart from the columns are no diag of anything, so each
// tile is a linalg.generic that selects the input where the row (shifted by
// the tile's offset) equals the column. `tile-sizes=2` tiles the batch loop
// only: each tile is a diag of its rows of the input. `tile-sizes=0,2,3`
// would tile the layer_norm's axis: it is left as it is.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2,3}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2}' | filecheck %s --check-prefix=BATCH
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=0,2,3}' | filecheck %s --check-prefix=AXIS

// CHECK-LABEL: func.func @layer_norm_of_neg
// BATCH-LABEL: func.func @layer_norm_of_neg
// AXIS-LABEL: func.func @layer_norm_of_neg
func.func @layer_norm_of_neg(%x: tensor<3x5x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<3x5x8xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %e = tensor.empty() : tensor<3x5x8xf32>
  %n = linalg.negf ins(%x : tensor<3x5x8xf32>) outs(%e : tensor<3x5x8xf32>) -> tensor<3x5x8xf32>
  %o = tensor.empty() : tensor<3x5x8xf32>
  %m = tensor.empty() : tensor<3x5xf32>
  %s = tensor.empty() : tensor<3x5xf32>
  %r:3 = linalg_ext.layer_norm axis([2]) epsilon(1.000000e-05) ins(%n, %w, %b : tensor<3x5x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%o, %m, %s : tensor<3x5x8xf32>, tensor<3x5xf32>, tensor<3x5xf32>) : tensor<3x5x8xf32>, tensor<3x5xf32>, tensor<3x5xf32>
  return %r#0, %r#1, %r#2 : tensor<3x5x8xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}
// CHECK-NOT:      linalg.negf
// CHECK:          %r, %r_1, %r_2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OI:.*]] = %o, %[[MI:.*]] = %m, %[[SI_:.*]] = %m)
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %[[OI]], %[[M:.*]] = %[[MI]], %[[S:.*]] = %[[SI_]])
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[I]])
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[J]])
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]], 0] [%[[SI]], %[[SJ]], 8] [1, 1, 1] : tensor<3x5x8xf32> to tensor<?x?x8xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]]) : tensor<?x?x8xf32>
// CHECK-NEXT:         %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x?x8xf32>) outs(%[[E]] : tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
// CHECK-NEXT:         %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], %[[J]], 0] [%[[SI]], %[[SJ]], 8] [1, 1, 1] : tensor<3x5x8xf32> to tensor<?x?x8xf32>
// CHECK-NEXT:         %[[MT:.*]] = tensor.extract_slice %[[M]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<3x5xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<3x5xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[RO:.*]], %[[RM:.*]], %[[RS:.*]] = linalg_ext.layer_norm axis([2]) epsilon(1.000000e-05) ins(%[[N]], %w, %b : tensor<?x?x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%[[OT]], %[[MT]], %[[ST]] : tensor<?x?x8xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT:         tensor.insert_slice %[[RO]] into %[[O]][%[[I]], %[[J]], 0] [%[[SI]], %[[SJ]], 8] [1, 1, 1] : tensor<?x?x8xf32> into tensor<3x5x8xf32>
// CHECK-NEXT:         tensor.insert_slice %[[RM]] into %[[M]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<3x5xf32>
// CHECK-NEXT:         tensor.insert_slice %[[RS]] into %[[S]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<3x5xf32>
// BATCH-NOT:      linalg.negf
// BATCH:          %r, %r_1, %r_2 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %o, %[[M:.*]] = %m, %[[S:.*]] = %m)
// BATCH-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[I]])
// BATCH:            %[[N:.*]] = linalg.negf ins(%{{.*}} : tensor<?x5x8xf32>) outs(%{{.*}} : tensor<?x5x8xf32>) -> tensor<?x5x8xf32>
// BATCH:            linalg_ext.layer_norm axis([2]) epsilon(1.000000e-05) ins(%[[N]], %w, %b : tensor<?x5x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x5x8xf32>, tensor<?x5xf32>, tensor<?x5xf32>)
// AXIS-NOT:       scf.for
// AXIS:           %n = linalg.negf
// AXIS:           linalg_ext.layer_norm axis([2]) epsilon(1.000000e-05) ins(%n, %w, %b : tensor<3x5x8xf32>, tensor<8xf32>, tensor<8xf32>)

// CHECK-LABEL: func.func @diag_of_exp
// BATCH-LABEL: func.func @diag_of_exp
// AXIS-LABEL: func.func @diag_of_exp
func.func @diag_of_exp(%v: tensor<3x5xf32>) -> tensor<3x5x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %x = linalg.exp ins(%v : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %o = tensor.empty() : tensor<3x5x5xf32>
  %d = linalg_ext.diag ins(%x : tensor<3x5xf32>) outs(%o : tensor<3x5x5xf32>) : tensor<3x5x5xf32>
  return %d : tensor<3x5x5xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %d = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_B:.*]] = %o) -> (tensor<3x5x5xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_B]]) -> (tensor<3x5x5xf32>) {
// CHECK-NEXT:         %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[B]])
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[I]])
// CHECK-NEXT:         %[[SHIFT:.*]] = affine.apply affine_map<(d0) -> ((d0 * -1))> (%[[I]])
// CHECK-NEXT:         %[[V:.*]] = tensor.extract_slice %v[%[[B]], %[[I]]] [%[[SB]], %[[SI]]] [1, 1] : tensor<3x5xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SB]], %[[SI]]) : tensor<?x?xf32>
// CHECK-NEXT:         %[[X:.*]] = linalg.exp ins(%[[V]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], %[[I]], 0] [%[[SB]], %[[SI]], 5] [1, 1, 1] : tensor<3x5x5xf32> to tensor<?x?x5xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?x5xf32>) {
// CHECK:                %[[ROW:.*]] = linalg.index 1 : index
// CHECK-NEXT:           %[[COL:.*]] = linalg.index 2 : index
// CHECK-NEXT:           %[[DIFF:.*]] = arith.subi %[[ROW]], %[[COL]] : index
// CHECK-NEXT:           %[[ON:.*]] = arith.cmpi eq, %[[DIFF]], %[[SHIFT]] : index
// CHECK:                arith.select %[[ON]], %{{.*}}, %{{.*}} : f32
// CHECK:              } -> tensor<?x?x5xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[B]], %[[I]], 0] [%[[SB]], %[[SI]], 5] [1, 1, 1] : tensor<?x?x5xf32> into tensor<3x5x5xf32>
// BATCH-NOT:      linalg.exp
// BATCH:          %d = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<3x5x5xf32>) {
// BATCH-NEXT:       %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[B]])
// BATCH-NEXT:       %[[V:.*]] = tensor.extract_slice %v[%[[B]], 0] [%[[SB]], 5] [1, 1] : tensor<3x5xf32> to tensor<?x5xf32>
// BATCH-NEXT:       %[[E:.*]] = tensor.empty(%[[SB]]) : tensor<?x5xf32>
// BATCH-NEXT:       %[[X:.*]] = linalg.exp ins(%[[V]] : tensor<?x5xf32>) outs(%[[E]] : tensor<?x5xf32>) -> tensor<?x5xf32>
// BATCH-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0, 0] [%[[SB]], 5, 5] [1, 1, 1] : tensor<3x5x5xf32> to tensor<?x5x5xf32>
// BATCH-NEXT:       %[[T:.*]] = linalg_ext.diag ins(%[[X]] : tensor<?x5xf32>) outs(%[[D]] : tensor<?x5x5xf32>) : tensor<?x5x5xf32>
// BATCH-NEXT:       tensor.insert_slice %[[T]] into %[[ACC]][%[[B]], 0, 0] [%[[SB]], 5, 5] [1, 1, 1] : tensor<?x5x5xf32> into tensor<3x5x5xf32>
// AXIS-NOT:       linalg.exp
// AXIS:           %d = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %o) -> (tensor<3x5x5xf32>) {
// AXIS-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<3x5x5xf32>) {
// AXIS:               %[[SHIFT:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + (d1 * -1)))> (%[[J]], %[[I]])
// AXIS:               %[[X:.*]] = linalg.exp ins(%{{.*}} : tensor<3x?xf32>)
// AXIS-NEXT:          %[[D:.*]] = tensor.extract_slice %[[ACC]][0, %[[I]], %[[J]]] [3, %{{.*}}, %{{.*}}] [1, 1, 1] : tensor<3x5x5xf32> to tensor<3x?x?xf32>
// AXIS-NEXT:          linalg.generic {{.*}} ins(%[[X]] : tensor<3x?xf32>) outs(%[[D]] : tensor<3x?x?xf32>)
// AXIS:                 arith.cmpi eq, %{{.*}}, %[[SHIFT]] : index
