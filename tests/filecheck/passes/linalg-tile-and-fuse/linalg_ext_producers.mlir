// linalg_ext ops as producers: each feeds an elementwise root, which is
// tiled by rows (`tile-sizes=2`, 5 or 3 rows by 2: a partial last tile) or
// by columns (`tile-sizes=0,3`). A tile of a softmax, scan, topk or
// layer_norm result is computed only when it is whole along the op's
// dimension (or normalised axis): fused by rows, left before the loops by
// columns. The topk's indices are also returned: the topk stays for them
// and its values are computed again per row tile. A scatter's result tile
// must be whole along the indexed dimension: fused by columns (a panel of
// src updated by the same updates' columns), left before the loops by rows.
// A batch_matmul tile is computed over its whole k, with its fill; a diag
// tile by batch rows is a diag of the input's rows, by matrix rows a generic
// selecting the diagonal.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=0,3}' | filecheck %s --check-prefix=COLS

// CHECK-LABEL: func.func @softmax_then_exp
// COLS-LABEL: func.func @softmax_then_exp
func.func @softmax_then_exp(%x: tensor<5x8xf32>, %m0: tensor<5xf32>, %a0: tensor<5xf32>) -> tensor<5x8xf32> {
  %e = tensor.empty() : tensor<5x8xf32>
  %s = tensor.empty() : tensor<5xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<5x8xf32>)
      outs(%e, %m0, %a0, %s : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
      : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  %o = tensor.empty() : tensor<5x8xf32>
  %y = linalg.exp ins(%r#0 : tensor<5x8xf32>) outs(%o : tensor<5x8xf32>) -> tensor<5x8xf32>
  return %y : tensor<5x8xf32>
}
// CHECK-NOT:      linalg_ext.softmax
// CHECK:          %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<5x8xf32>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[O:.*]] = tensor.empty(%[[SI]]) : tensor<?x8xf32>
// CHECK-NEXT:       %[[M:.*]] = tensor.extract_slice %m0[%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[A:.*]] = tensor.extract_slice %a0[%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[S:.*]] = tensor.empty(%[[SI]]) : tensor<?xf32>
// CHECK-NEXT:       %[[SM:.*]], %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%[[X]] : tensor<?x8xf32>) outs(%[[O]], %[[M]], %[[A]], %[[S]] : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[T:.*]] = linalg.exp ins(%[[SM]] : tensor<?x8xf32>) outs(%[[D]] : tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:       tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<?x8xf32> into tensor<5x8xf32>
// COLS:           %r, %r_1, %r_2, %r_3 = linalg_ext.softmax dimension(1) ins(%x : tensor<5x8xf32>)
// COLS:           %y = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %e) -> (tensor<5x8xf32>) {
// COLS-NEXT:        %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 8), 3)> (%[[J]])
// COLS-NEXT:        %[[R:.*]] = tensor.extract_slice %r[0, %[[J]]] [5, %[[SJ]]] [1, 1] : tensor<5x8xf32> to tensor<5x?xf32>
// COLS-NOT:         linalg_ext.softmax
// COLS:             linalg.exp ins(%[[R]] : tensor<5x?xf32>)

// CHECK-LABEL: func.func @scan_then_neg
// COLS-LABEL: func.func @scan_then_neg
func.func @scan_then_neg(%x: tensor<5x8xf32>, %c: tensor<5xf32>) -> tensor<5x8xf32> {
  %e = tensor.empty() : tensor<5x8xf32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<5x8xf32>) outs(%e, %c : tensor<5x8xf32>, tensor<5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<5x8xf32>, tensor<5xf32>
  %o = tensor.empty() : tensor<5x8xf32>
  %y = linalg.negf ins(%r#0 : tensor<5x8xf32>) outs(%o : tensor<5x8xf32>) -> tensor<5x8xf32>
  return %y : tensor<5x8xf32>
}
// CHECK-NOT:      linalg_ext.scan
// CHECK:          %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<5x8xf32>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[O:.*]] = tensor.empty(%[[SI]]) : tensor<?x8xf32>
// CHECK-NEXT:       %[[C:.*]] = tensor.extract_slice %c[%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[SC:.*]], %{{.*}} = linalg_ext.scan dimension(1) inclusive(true) ins(%[[X]] : tensor<?x8xf32>) outs(%[[O]], %[[C]] : tensor<?x8xf32>, tensor<?xf32>) {
// CHECK:            } -> tensor<?x8xf32>, tensor<?xf32>
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       linalg.negf ins(%[[SC]] : tensor<?x8xf32>) outs(%[[D]] : tensor<?x8xf32>) -> tensor<?x8xf32>
// COLS:           %r, %r_1 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<5x8xf32>)
// COLS:           %y = scf.for
// COLS-NOT:         linalg_ext.scan
// COLS:             linalg.negf ins(%{{.*}} : tensor<5x?xf32>)

// CHECK-LABEL: func.func @topk_then_neg
// COLS-LABEL: func.func @topk_then_neg
func.func @topk_then_neg(%x: tensor<5x8xf32>) -> (tensor<5x4xf32>, tensor<5x4xi32>) {
  %ov = tensor.empty() : tensor<5x4xf32>
  %oi = tensor.empty() : tensor<5x4xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%x : tensor<5x8xf32>) outs(%ov, %oi : tensor<5x4xf32>, tensor<5x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  } -> tensor<5x4xf32>, tensor<5x4xi32>
  %o = tensor.empty() : tensor<5x4xf32>
  %y = linalg.negf ins(%r#0 : tensor<5x4xf32>) outs(%o : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %y, %r#1 : tensor<5x4xf32>, tensor<5x4xi32>
}
// CHECK:          %r, %r_1 = linalg_ext.topk dimension(1) ins(%x : tensor<5x8xf32>)
// CHECK:          %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %ov) -> (tensor<5x4xf32>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[V:.*]] = tensor.empty(%[[SI]]) : tensor<?x4xf32>
// CHECK-NEXT:       %[[IX:.*]] = tensor.empty(%[[SI]]) : tensor<?x4xi32>
// CHECK-NEXT:       %[[TV:.*]], %{{.*}} = linalg_ext.topk dimension(1) ins(%[[X]] : tensor<?x8xf32>) outs(%[[V]], %[[IX]] : tensor<?x4xf32>, tensor<?x4xi32>) {
// CHECK:            } -> tensor<?x4xf32>, tensor<?x4xi32>
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], 4] [1, 1] : tensor<5x4xf32> to tensor<?x4xf32>
// CHECK-NEXT:       linalg.negf ins(%[[TV]] : tensor<?x4xf32>) outs(%[[D]] : tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK:          func.return %y, %r_1 : tensor<5x4xf32>, tensor<5x4xi32>
// COLS:           %r, %r_1 = linalg_ext.topk dimension(1) ins(%x : tensor<5x8xf32>)
// COLS:           %y = scf.for
// COLS-NOT:         linalg_ext.topk
// COLS:             linalg.negf ins(%{{.*}} : tensor<5x?xf32>)

// CHECK-LABEL: func.func @ln_then_neg
// COLS-LABEL: func.func @ln_then_neg
func.func @ln_then_neg(%x: tensor<5x8xf32>) -> tensor<5x8xf32> {
  %o = tensor.empty() : tensor<5x8xf32>
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x : tensor<5x8xf32>) outs(%o : tensor<5x8xf32>) : tensor<5x8xf32>
  %o2 = tensor.empty() : tensor<5x8xf32>
  %y = linalg.negf ins(%r : tensor<5x8xf32>) outs(%o2 : tensor<5x8xf32>) -> tensor<5x8xf32>
  return %y : tensor<5x8xf32>
}
// CHECK-NOT:      linalg_ext.layer_norm
// CHECK:          %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o2) -> (tensor<5x8xf32>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[O:.*]] = tensor.empty(%[[SI]]) : tensor<?x8xf32>
// CHECK-NEXT:       %[[LN:.*]] = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%[[X]] : tensor<?x8xf32>) outs(%[[O]] : tensor<?x8xf32>) : tensor<?x8xf32>
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       linalg.negf ins(%[[LN]] : tensor<?x8xf32>) outs(%[[D]] : tensor<?x8xf32>) -> tensor<?x8xf32>
// COLS:           %r = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x : tensor<5x8xf32>)
// COLS:           %y = scf.for
// COLS-NOT:         linalg_ext.layer_norm
// COLS:             linalg.negf ins(%{{.*}} : tensor<5x?xf32>)

// CHECK-LABEL: func.func @scatter_then_neg
// COLS-LABEL: func.func @scatter_then_neg
func.func @scatter_then_neg(%u: tensor<5x6xf32>, %src: tensor<10x6xf32>) -> tensor<10x6xf32> {
  %i = arith.constant dense<[[3], [7], [3], [0], [9]]> : tensor<5x1xi64>
  %r = linalg_ext.scatter ins(%i, %u : tensor<5x1xi64>, tensor<5x6xf32>) outs(%src : tensor<10x6xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<10x6xf32>
  %o = tensor.empty() : tensor<10x6xf32>
  %y = linalg.negf ins(%r : tensor<10x6xf32>) outs(%o : tensor<10x6xf32>) -> tensor<10x6xf32>
  return %y : tensor<10x6xf32>
}
// CHECK:          %r = linalg_ext.scatter ins(%i, %u : tensor<5x1xi64>, tensor<5x6xf32>) outs(%src : tensor<10x6xf32>)
// CHECK:          %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<10x6xf32>) {
// CHECK-NEXT:       %[[R:.*]] = tensor.extract_slice %r[%[[I]], 0] [2, 6] [1, 1] : tensor<10x6xf32> to tensor<2x6xf32>
// CHECK-NOT:        linalg_ext.scatter
// CHECK:            linalg.negf ins(%[[R]] : tensor<2x6xf32>)
// COLS-NOT:       linalg_ext.scatter
// COLS:           %y = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<10x6xf32>) {
// COLS-NEXT:        %[[U:.*]] = tensor.extract_slice %u[0, %[[J]]] [5, 3] [1, 1] : tensor<5x6xf32> to tensor<5x3xf32>
// COLS-NEXT:        %[[SRC:.*]] = tensor.extract_slice %src[0, %[[J]]] [10, 3] [1, 1] : tensor<10x6xf32> to tensor<10x3xf32>
// COLS-NEXT:        %[[SC:.*]] = linalg_ext.scatter ins(%i, %[[U]] : tensor<5x1xi64>, tensor<5x3xf32>) outs(%[[SRC]] : tensor<10x3xf32>) {
// COLS:             } -> tensor<10x3xf32>
// COLS-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][0, %[[J]]] [10, 3] [1, 1] : tensor<10x6xf32> to tensor<10x3xf32>
// COLS-NEXT:        linalg.negf ins(%[[SC]] : tensor<10x3xf32>) outs(%[[D]] : tensor<10x3xf32>) -> tensor<10x3xf32>

// CHECK-LABEL: func.func @ext_bmm_then_neg
// COLS-LABEL: func.func @ext_bmm_then_neg
func.func @ext_bmm_then_neg(%a: tensor<3x5x4xf32>, %b: tensor<3x4x6xf32>) -> tensor<3x5x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x6xf32>) -> tensor<3x5x6xf32>
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<3x5x4xf32>, tensor<3x4x6xf32>) outs(%f : tensor<3x5x6xf32>) layout = "nn"
  %o2 = tensor.empty() : tensor<3x5x6xf32>
  %y = linalg.negf ins(%r : tensor<3x5x6xf32>) outs(%o2 : tensor<3x5x6xf32>) -> tensor<3x5x6xf32>
  return %y : tensor<3x5x6xf32>
}
// CHECK-NOT:      linalg.fill
// CHECK-NOT:      linalg_ext.batch_matmul
// CHECK:          %y = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o2) -> (tensor<3x5x6xf32>) {
// CHECK-NEXT:       %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[B]])
// CHECK-NEXT:       %[[A:.*]] = tensor.extract_slice %a[%[[B]], 0, 0] [%[[SB]], 5, 4] [1, 1, 1] : tensor<3x5x4xf32> to tensor<?x5x4xf32>
// CHECK-NEXT:       %[[RHS:.*]] = tensor.extract_slice %b[%[[B]], 0, 0] [%[[SB]], 4, 6] [1, 1, 1] : tensor<3x4x6xf32> to tensor<?x4x6xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[SB]]) : tensor<?x5x6xf32>
// CHECK-NEXT:       %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<?x5x6xf32>) -> tensor<?x5x6xf32>
// CHECK-NEXT:       %[[P:.*]] = linalg_ext.batch_matmul ins(%[[A]], %[[RHS]] : tensor<?x5x4xf32>, tensor<?x4x6xf32>) outs(%[[F]] : tensor<?x5x6xf32>) layout = "nn"
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0, 0] [%[[SB]], 5, 6] [1, 1, 1] : tensor<3x5x6xf32> to tensor<?x5x6xf32>
// CHECK-NEXT:       linalg.negf ins(%[[P]] : tensor<?x5x6xf32>) outs(%[[D]] : tensor<?x5x6xf32>) -> tensor<?x5x6xf32>
// COLS-NOT:       linalg.fill
// COLS-NOT:       linalg_ext.batch_matmul
// COLS:           %y = scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o2) -> (tensor<3x5x6xf32>) {
// COLS:             %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<3x?x6xf32>) -> tensor<3x?x6xf32>
// COLS-NEXT:        %[[P:.*]] = linalg_ext.batch_matmul ins(%{{.*}}, %b : tensor<3x?x4xf32>, tensor<3x4x6xf32>) outs(%[[F]] : tensor<3x?x6xf32>) layout = "nn"
// COLS:             linalg.negf ins(%[[P]] : tensor<3x?x6xf32>)

// CHECK-LABEL: func.func @diag3_then_neg
// COLS-LABEL: func.func @diag3_then_neg
func.func @diag3_then_neg(%v: tensor<3x5xf32>) -> tensor<3x5x5xf32> {
  %o = tensor.empty() : tensor<3x5x5xf32>
  %d = linalg_ext.diag ins(%v : tensor<3x5xf32>) outs(%o : tensor<3x5x5xf32>) : tensor<3x5x5xf32>
  %o2 = tensor.empty() : tensor<3x5x5xf32>
  %y = linalg.negf ins(%d : tensor<3x5x5xf32>) outs(%o2 : tensor<3x5x5xf32>) -> tensor<3x5x5xf32>
  return %y : tensor<3x5x5xf32>
}
// CHECK-NOT:      linalg_ext.diag
// CHECK:          %y = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o2) -> (tensor<3x5x5xf32>) {
// CHECK-NEXT:       %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[B]])
// CHECK-NEXT:       %[[V:.*]] = tensor.extract_slice %v[%[[B]], 0] [%[[SB]], 5] [1, 1] : tensor<3x5xf32> to tensor<?x5xf32>
// CHECK-NEXT:       %[[O:.*]] = tensor.empty(%[[SB]]) : tensor<?x5x5xf32>
// CHECK-NEXT:       %[[DG:.*]] = linalg_ext.diag ins(%[[V]] : tensor<?x5xf32>) outs(%[[O]] : tensor<?x5x5xf32>) : tensor<?x5x5xf32>
// CHECK-NEXT:       %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0, 0] [%[[SB]], 5, 5] [1, 1, 1] : tensor<3x5x5xf32> to tensor<?x5x5xf32>
// CHECK-NEXT:       linalg.negf ins(%[[DG]] : tensor<?x5x5xf32>) outs(%[[D]] : tensor<?x5x5xf32>) -> tensor<?x5x5xf32>
// COLS-NOT:       linalg_ext.diag
// COLS:           %y = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o2) -> (tensor<3x5x5xf32>) {
// COLS-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 3)> (%[[I]])
// COLS-NEXT:        %[[SHIFT:.*]] = affine.apply affine_map<(d0) -> ((d0 * -1))> (%[[I]])
// COLS-NEXT:        %[[V:.*]] = tensor.extract_slice %v[0, %[[I]]] [3, %[[SI]]] [1, 1] : tensor<3x5xf32> to tensor<3x?xf32>
// COLS-NEXT:        %[[O:.*]] = tensor.empty(%[[SI]]) : tensor<3x?x5xf32>
// COLS-NEXT:        %[[DG:.*]] = linalg.generic {{.*}} ins(%[[V]] : tensor<3x?xf32>) outs(%[[O]] : tensor<3x?x5xf32>) {
// COLS:               arith.cmpi eq, %{{.*}}, %[[SHIFT]] : index
// COLS:             } -> tensor<3x?x5xf32>
// COLS-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][0, %[[I]], 0] [3, %[[SI]], 5] [1, 1, 1] : tensor<3x5x5xf32> to tensor<3x?x5xf32>
// COLS-NEXT:        linalg.negf ins(%[[DG]] : tensor<3x?x5xf32>) outs(%[[D]] : tensor<3x?x5xf32>) -> tensor<3x?x5xf32>
