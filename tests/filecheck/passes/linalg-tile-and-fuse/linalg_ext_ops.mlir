// linalg_ext scan, topk, unnorm_softmax and scatter as roots, each with an
// elementwise producer computed per tile inside the loops.
// `tile-sizes=2` tiles the first loop (5 rows or 5 updates by 2: a partial
// last tile): rows of the scan with their accumulator entries, rows of the
// topk writing rows of both outputs (whole along K), rows of the
// unnorm_softmax with its three statistics at their own rank, and the
// scatter's batch loop (a reduction: every tile updates the whole src, the
// loop carries it). `tile-sizes=2,3` also tiles the second loop: the scan
// along its dimension (the accumulator carries the running sum from tile to
// tile), the scatter along its window (each tile updates a column panel of
// src, whole along the indexed dimension); the topk's and the softmax's
// dimension must stay whole, so they are left as they are.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2,3}' | filecheck %s --check-prefix=TWO

// CHECK-LABEL: func.func @scan_of_neg
// TWO-LABEL: func.func @scan_of_neg
func.func @scan_of_neg(%x: tensor<5x7xf32>, %carry: tensor<5xf32>) -> (tensor<5x7xf32>, tensor<5xf32>) {
  %e = tensor.empty() : tensor<5x7xf32>
  %n = linalg.negf ins(%x : tensor<5x7xf32>) outs(%e : tensor<5x7xf32>) -> tensor<5x7xf32>
  %o = tensor.empty() : tensor<5x7xf32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%n : tensor<5x7xf32>) outs(%o, %carry : tensor<5x7xf32>, tensor<5xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<5x7xf32>, tensor<5xf32>
  return %r#0, %r#1 : tensor<5x7xf32>, tensor<5xf32>
}
// CHECK-NOT:      linalg.negf
// CHECK:          %r, %r_1 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %o, %[[C:.*]] = %carry) -> (tensor<5x7xf32>, tensor<5xf32>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 7] [1, 1] : tensor<5x7xf32> to tensor<?x7xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[SI]]) : tensor<?x7xf32>
// CHECK-NEXT:       %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x7xf32>) outs(%[[E]] : tensor<?x7xf32>) -> tensor<?x7xf32>
// CHECK-NEXT:       %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[SI]], 7] [1, 1] : tensor<5x7xf32> to tensor<?x7xf32>
// CHECK-NEXT:       %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[S:.*]], %[[SC:.*]] = linalg_ext.scan dimension(1) inclusive(true) ins(%[[N]] : tensor<?x7xf32>) outs(%[[OT]], %[[CT]] : tensor<?x7xf32>, tensor<?xf32>) {
// CHECK:            } -> tensor<?x7xf32>, tensor<?xf32>
// CHECK-NEXT:       %[[U:.*]] = tensor.insert_slice %[[S]] into %[[O]][%[[I]], 0] [%[[SI]], 7] [1, 1] : tensor<?x7xf32> into tensor<5x7xf32>
// CHECK-NEXT:       %[[UC:.*]] = tensor.insert_slice %[[SC]] into %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<5xf32>
// CHECK-NEXT:       scf.yield %[[U]], %[[UC]] : tensor<5x7xf32>, tensor<5xf32>
// TWO-NOT:        linalg.negf
// TWO:            %r, %r_1 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OI:.*]] = %o, %[[CI:.*]] = %carry) -> (tensor<5x7xf32>, tensor<5xf32>) {
// TWO-NEXT:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %[[OI]], %[[C:.*]] = %[[CI]]) -> (tensor<5x7xf32>, tensor<5xf32>) {
// TWO-NEXT:           %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// TWO-NEXT:           %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[J]])
// TWO-NEXT:           %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// TWO-NEXT:           %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]])
// TWO-NEXT:           %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// TWO-NEXT:           %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// TWO-NEXT:           %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// TWO-NEXT:           %[[S:.*]], %[[SC:.*]] = linalg_ext.scan dimension(1) inclusive(true) ins(%[[N]] : tensor<?x?xf32>) outs(%[[OT]], %[[CT]] : tensor<?x?xf32>, tensor<?xf32>) {
// TWO:              } -> tensor<?x?xf32>, tensor<?xf32>
// TWO-NEXT:           %[[U:.*]] = tensor.insert_slice %[[S]] into %[[O]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// TWO-NEXT:           %[[UC:.*]] = tensor.insert_slice %[[SC]] into %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<5xf32>
// TWO-NEXT:           scf.yield %[[U]], %[[UC]] : tensor<5x7xf32>, tensor<5xf32>

// CHECK-LABEL: func.func @topk_of_exp
// TWO-LABEL: func.func @topk_of_exp
func.func @topk_of_exp(%x: tensor<5x9xf32>, %idx: tensor<5x9xi64>) -> (tensor<5x3xf32>, tensor<5x3xi64>) {
  %e = tensor.empty() : tensor<5x9xf32>
  %ex = linalg.exp ins(%x : tensor<5x9xf32>) outs(%e : tensor<5x9xf32>) -> tensor<5x9xf32>
  %ov = tensor.empty() : tensor<5x3xf32>
  %oi = tensor.empty() : tensor<5x3xi64>
  %r:2 = linalg_ext.topk dimension(1) ins(%ex, %idx : tensor<5x9xf32>, tensor<5x9xi64>) outs(%ov, %oi : tensor<5x3xf32>, tensor<5x3xi64>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  } -> tensor<5x3xf32>, tensor<5x3xi64>
  return %r#0, %r#1 : tensor<5x3xf32>, tensor<5x3xi64>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %r, %r_1 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[V:.*]] = %ov, %[[IX:.*]] = %oi) -> (tensor<5x3xf32>, tensor<5x3xi64>) {
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 9] [1, 1] : tensor<5x9xf32> to tensor<?x9xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[SI]]) : tensor<?x9xf32>
// CHECK-NEXT:       %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x9xf32>) outs(%[[E]] : tensor<?x9xf32>) -> tensor<?x9xf32>
// CHECK-NEXT:       %[[IDX:.*]] = tensor.extract_slice %idx[%[[I]], 0] [%[[SI]], 9] [1, 1] : tensor<5x9xi64> to tensor<?x9xi64>
// CHECK-NEXT:       %[[VT:.*]] = tensor.extract_slice %[[V]][%[[I]], 0] [%[[SI]], 3] [1, 1] : tensor<5x3xf32> to tensor<?x3xf32>
// CHECK-NEXT:       %[[IT:.*]] = tensor.extract_slice %[[IX]][%[[I]], 0] [%[[SI]], 3] [1, 1] : tensor<5x3xi64> to tensor<?x3xi64>
// CHECK-NEXT:       %[[TV:.*]], %[[TI:.*]] = linalg_ext.topk dimension(1) ins(%[[EXP]], %[[IDX]] : tensor<?x9xf32>, tensor<?x9xi64>) outs(%[[VT]], %[[IT]] : tensor<?x3xf32>, tensor<?x3xi64>) {
// CHECK:            } -> tensor<?x3xf32>, tensor<?x3xi64>
// CHECK-NEXT:       tensor.insert_slice %[[TV]] into %[[V]][%[[I]], 0] [%[[SI]], 3] [1, 1] : tensor<?x3xf32> into tensor<5x3xf32>
// CHECK-NEXT:       tensor.insert_slice %[[TI]] into %[[IX]][%[[I]], 0] [%[[SI]], 3] [1, 1] : tensor<?x3xi64> into tensor<5x3xi64>
// TWO-NOT:        scf.for
// TWO:            %ex = linalg.exp
// TWO:            %r, %r_1 = linalg_ext.topk dimension(1) ins(%ex, %idx : tensor<5x9xf32>, tensor<5x9xi64>)

// CHECK-LABEL: func.func @unnorm_softmax_of_neg
// TWO-LABEL: func.func @unnorm_softmax_of_neg
func.func @unnorm_softmax_of_neg(%x: tensor<5x8xf32>, %m0: tensor<5xf32>, %a0: tensor<5xf32>) -> (tensor<5x8xf32>, tensor<5xf32>) {
  %e = tensor.empty() : tensor<5x8xf32>
  %n = linalg.negf ins(%x : tensor<5x8xf32>) outs(%e : tensor<5x8xf32>) -> tensor<5x8xf32>
  %s = tensor.empty() : tensor<5xf32>
  %r:4 = linalg_ext.unnorm_softmax dimension(1) ins(%n : tensor<5x8xf32>)
      outs(%e, %m0, %a0, %s : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
      : tensor<5x8xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  return %r#0, %r#2 : tensor<5x8xf32>, tensor<5xf32>
}
// CHECK-NOT:      linalg.negf
// CHECK:          %r, %r_1, %r_2, %r_3 = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %e, %[[M:.*]] = %m0, %[[A:.*]] = %a0, %[[S:.*]] = %s)
// CHECK-NEXT:       %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[SI]]) : tensor<?x8xf32>
// CHECK-NEXT:       %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK-NEXT:       %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[SI]], 8] [1, 1] : tensor<5x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[MT:.*]] = tensor.extract_slice %[[M]][%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[AT:.*]] = tensor.extract_slice %[[A]][%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]]] [%[[SI]]] [1] : tensor<5xf32> to tensor<?xf32>
// CHECK-NEXT:       %{{.*}}, %{{.*}}, %[[AR:.*]], %{{.*}} = linalg_ext.unnorm_softmax dimension(1) ins(%[[N]] : tensor<?x8xf32>) outs(%[[OT]], %[[MT]], %[[AT]], %[[ST]] : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// CHECK:            tensor.insert_slice %[[AR]] into %[[A]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<5xf32>
// TWO-NOT:        scf.for
// TWO:            %n = linalg.negf
// TWO:            linalg_ext.unnorm_softmax dimension(1) ins(%n : tensor<5x8xf32>)

// The indices are constants in range (random ones would not be); 3 occurs
// twice, so two updates add onto the same row of src.
// CHECK-LABEL: func.func @scatter_add
// TWO-LABEL: func.func @scatter_add
func.func @scatter_add(%u: tensor<5x6xf32>, %src: tensor<10x6xf32>) -> tensor<10x6xf32> {
  %i = arith.constant dense<[[3], [7], [3], [0], [9]]> : tensor<5x1xi64>
  %e = tensor.empty() : tensor<5x6xf32>
  %ex = linalg.exp ins(%u : tensor<5x6xf32>) outs(%e : tensor<5x6xf32>) -> tensor<5x6xf32>
  %r = linalg_ext.scatter ins(%i, %ex : tensor<5x1xi64>, tensor<5x6xf32>) outs(%src : tensor<10x6xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<10x6xf32>
  return %r : tensor<10x6xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %r = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SRC:.*]] = %src) -> (tensor<10x6xf32>) {
// CHECK-NEXT:       %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[B]])
// CHECK-NEXT:       %[[IT:.*]] = tensor.extract_slice %i[%[[B]], 0] [%[[SB]], 1] [1, 1] : tensor<5x1xi64> to tensor<?x1xi64>
// CHECK-NEXT:       %[[UT:.*]] = tensor.extract_slice %u[%[[B]], 0] [%[[SB]], 6] [1, 1] : tensor<5x6xf32> to tensor<?x6xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[SB]]) : tensor<?x6xf32>
// CHECK-NEXT:       %[[EXP:.*]] = linalg.exp ins(%[[UT]] : tensor<?x6xf32>) outs(%[[E]] : tensor<?x6xf32>) -> tensor<?x6xf32>
// CHECK-NEXT:       %[[T:.*]] = linalg_ext.scatter ins(%[[IT]], %[[EXP]] : tensor<?x1xi64>, tensor<?x6xf32>) outs(%[[SRC]] : tensor<10x6xf32>) {
// CHECK:            } -> tensor<10x6xf32>
// CHECK-NEXT:       scf.yield %[[T]] : tensor<10x6xf32>
// TWO-NOT:        linalg.exp
// TWO:            %r = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SRC_B:.*]] = %src) -> (tensor<10x6xf32>) {
// TWO-NEXT:         scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[SRC:.*]] = %[[SRC_B]]) -> (tensor<10x6xf32>) {
// TWO-NEXT:           %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 2)> (%[[B]])
// TWO-NEXT:           %[[IT:.*]] = tensor.extract_slice %i[%[[B]], 0] [%[[SB]], 1] [1, 1] : tensor<5x1xi64> to tensor<?x1xi64>
// TWO-NEXT:           %[[UT:.*]] = tensor.extract_slice %u[%[[B]], %[[W]]] [%[[SB]], 3] [1, 1] : tensor<5x6xf32> to tensor<?x3xf32>
// TWO-NEXT:           %[[E:.*]] = tensor.empty(%[[SB]]) : tensor<?x3xf32>
// TWO-NEXT:           %[[EXP:.*]] = linalg.exp ins(%[[UT]] : tensor<?x3xf32>) outs(%[[E]] : tensor<?x3xf32>) -> tensor<?x3xf32>
// TWO-NEXT:           %[[D:.*]] = tensor.extract_slice %[[SRC]][0, %[[W]]] [10, 3] [1, 1] : tensor<10x6xf32> to tensor<10x3xf32>
// TWO-NEXT:           %[[T:.*]] = linalg_ext.scatter ins(%[[IT]], %[[EXP]] : tensor<?x1xi64>, tensor<?x3xf32>) outs(%[[D]] : tensor<10x3xf32>) {
// TWO:              } -> tensor<10x3xf32>
// TWO-NEXT:           tensor.insert_slice %[[T]] into %[[SRC]][0, %[[W]]] [10, 3] [1, 1] : tensor<10x3xf32> into tensor<10x6xf32>
