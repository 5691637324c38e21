// Dynamic shapes (tensor<?x?xf32>): every loop runs to a tensor.dim extent
// and every tile is clamped with affine.min over it. `tile-sizes=4,3
// interchange=1,0` tiles both loops, the second one outermost: a transpose
// with its exp producer (the producer's tile is the transposed one), a row
// sum whose reduced loop becomes the outer loop (the fill of its init stays
// before the loops), a scan along its dimension (outer loop: the accumulator
// is carried from column tile to column tile) with its exp producer, and a
// tensor.pad whose result sizes are those of the source plus the padding.
// The softmax would be tiled along its dimension: it is left as it is.
// `tile-sizes=4` tiles the rows only: the row sum's fill is fused, the
// softmax is tiled by row panels with its negf producer.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3 interchange=1,0}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4}' | filecheck %s --check-prefix=FOUR

// CHECK-LABEL: func.func @transpose_of_exp
// FOUR-LABEL: func.func @transpose_of_exp
func.func @transpose_of_exp(%x: tensor<?x?xf32>, %o: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %ex = linalg.exp ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.transpose ins(%ex : tensor<?x?xf32>) outs(%o : tensor<?x?xf32>) permutation = [1, 0]
  return %r : tensor<?x?xf32>
}
// The transpose's loops are its output's (rows of %o = columns of %x). The
// exp writes into a tensor.empty of its tile: the whole %e is gone.
// CHECK-NOT:      tensor.empty
// CHECK-NOT:      linalg.exp
// CHECK:          %r = scf.for %[[J:.*]] = %c0 to %m step %{{.*}} iter_args(%[[ACC_J:.*]] = %o) -> (tensor<?x?xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %c0 to %n step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_J]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[J]], %m)
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %n)
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[J]], %[[I]]] [%[[SJ]], %[[SI]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SJ]], %[[SI]]) : tensor<?x?xf32>
// CHECK-NEXT:         %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.transpose ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) permutation = [1, 0]
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
// FOUR:           %r = scf.for %[[I:.*]] = %c0 to %n step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<?x?xf32>) {
// FOUR-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %n)
// FOUR-NEXT:        %[[X:.*]] = tensor.extract_slice %x[0, %[[I]]] [%m, %[[SI]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// FOUR-NEXT:        %[[E:.*]] = tensor.empty(%m, %[[SI]]) : tensor<?x?xf32>
// FOUR-NEXT:        %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// FOUR-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [%[[SI]], %m] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// FOUR-NEXT:        linalg.transpose ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) permutation = [1, 0]

// CHECK-LABEL: func.func @row_sums
// FOUR-LABEL: func.func @row_sums
func.func @row_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}
// CHECK:          %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
// CHECK:          %[[N:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xf32>
// CHECK:          %r = scf.for %[[K:.*]] = %c0 to %[[N]] step %{{.*}} iter_args(%[[ACC_K:.*]] = %f) -> (tensor<?xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_K]]) -> (tensor<?xf32>) {
// CHECK-NEXT:         %[[SK:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[K]], %[[N]])
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %m)
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[K]]] [%[[SI]], %[[SK]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.reduce ins(%[[X]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?xf32>) dimensions = [1]
// CHECK:              tensor.insert_slice %[[T]] into %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<?xf32>
// CHECK-NOT:      linalg.fill
// FOUR:           %e = tensor.empty(%m) : tensor<?xf32>
// FOUR-NOT:       linalg.fill
// FOUR:           %[[N:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xf32>
// FOUR:           %r = scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[ACC:.*]] = %e) -> (tensor<?xf32>) {
// FOUR-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %m)
// FOUR-NEXT:        %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], %[[N]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// FOUR-NEXT:        %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// FOUR-NEXT:        %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[D]] : tensor<?xf32>) -> tensor<?xf32>
// FOUR-NEXT:        linalg.reduce ins(%[[X]] : tensor<?x?xf32>) outs(%[[F]] : tensor<?xf32>) dimensions = [1]

// CHECK-LABEL: func.func @scan_of_exp
// FOUR-LABEL: func.func @scan_of_exp
func.func @scan_of_exp(%x: tensor<?x?xf32>, %carry: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %ex = linalg.exp ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %o = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(false) ins(%ex : tensor<?x?xf32>) outs(%o, %carry : tensor<?x?xf32>, tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<?x?xf32>, tensor<?xf32>
  return %r#0, %r#1 : tensor<?x?xf32>, tensor<?xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %r, %r_1 = scf.for %[[J:.*]] = %c0 to %n step %{{.*}} iter_args(%[[OJ:.*]] = %o, %[[CJ:.*]] = %carry) -> (tensor<?x?xf32>, tensor<?xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[O:.*]] = %[[OJ]], %[[C:.*]] = %[[CJ]]) -> (tensor<?x?xf32>, tensor<?xf32>) {
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[J]], %n)
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %m)
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]])
// CHECK-NEXT:         %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[CT:.*]] = tensor.extract_slice %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// CHECK-NEXT:         %[[S:.*]], %[[SC:.*]] = linalg_ext.scan dimension(1) inclusive(false) ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[OT]], %[[CT]] : tensor<?x?xf32>, tensor<?xf32>) {
// CHECK:              } -> tensor<?x?xf32>, tensor<?xf32>
// CHECK-NEXT:         %[[U:.*]] = tensor.insert_slice %[[S]] into %[[O]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[UC:.*]] = tensor.insert_slice %[[SC]] into %[[C]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<?xf32>
// CHECK-NEXT:         scf.yield %[[U]], %[[UC]] : tensor<?x?xf32>, tensor<?xf32>
// FOUR:           %r, %r_1 = scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%{{.*}} = %o, %{{.*}} = %carry) -> (tensor<?x?xf32>, tensor<?xf32>) {
// FOUR:             %[[EXP:.*]] = linalg.exp
// FOUR:             linalg_ext.scan dimension(1) inclusive(false) ins(%[[EXP]] : tensor<?x?xf32>)

// CHECK-LABEL: func.func @pad_dyn
// FOUR-LABEL: func.func @pad_dyn
func.func @pad_dyn(%x: tensor<?x?xf32>, %v: f32) -> tensor<?x?xf32> {
  %p = tensor.pad %x low[2, 0] high[1, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
// CHECK:          %[[XM:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xf32>
// CHECK-NEXT:     %[[M:.*]] = affine.apply affine_map<(d0) -> ((d0 + 3))> (%[[XM]])
// CHECK:          %[[XN:.*]] = tensor.dim %x, %{{.*}} : tensor<?x?xf32>
// CHECK-NEXT:     %[[N:.*]] = affine.apply affine_map<(d0) -> ((d0 + 3))> (%[[XN]])
// CHECK-NEXT:     %[[INIT:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK-NOT:      tensor.pad
// CHECK:          %p = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC_J:.*]] = %[[INIT]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_J]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0, d1) -> ((((d0 * -1) + d1) + 3), 3)> (%[[J]], %[[XN]])
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> ((((d0 * -1) + d1) + 3), 4)> (%[[I]], %[[XM]])
// CHECK:              %[[SRC:.*]] = tensor.extract_slice %x[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[PAD:.*]] = tensor.pad %[[SRC]] low[%{{.*}}, 0] high[%{{.*}}, %{{.*}}] {
// CHECK:              } : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[PAD]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
// FOUR:           %p = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?x?xf32>) {
// FOUR:             %[[PAD:.*]] = tensor.pad %{{.*}} low[%{{.*}}, 0] high[%{{.*}}, %{{.*}}] {
// FOUR:             tensor.insert_slice %[[PAD]] into %[[ACC]][%[[I]], 0]

// CHECK-LABEL: func.func @softmax_of_neg
// FOUR-LABEL: func.func @softmax_of_neg
func.func @softmax_of_neg(%x: tensor<?x?xf32>, %m0: tensor<?xf32>, %a0: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %neg = linalg.negf ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tensor.empty(%m) : tensor<?xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%neg : tensor<?x?xf32>)
      outs(%e, %m0, %a0, %s : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0 : tensor<?x?xf32>
}
// CHECK-NOT:      scf.for
// CHECK:          %neg = linalg.negf
// CHECK:          linalg_ext.softmax dimension(1) ins(%neg : tensor<?x?xf32>)
// FOUR-NOT:       linalg.negf
// FOUR:           %r, %r_1, %r_2, %r_3 = scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[O:.*]] = %e, %[[M:.*]] = %m0, %[[A:.*]] = %a0, %[[S:.*]] = %s)
// FOUR-NEXT:        %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %m)
// FOUR-NEXT:        %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// FOUR-NEXT:        %[[E:.*]] = tensor.empty(%[[SI]], %n) : tensor<?x?xf32>
// FOUR-NEXT:        %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// FOUR-NEXT:        %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[SI]], %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// FOUR-NEXT:        %[[MT:.*]] = tensor.extract_slice %[[M]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// FOUR-NEXT:        %[[AT:.*]] = tensor.extract_slice %[[A]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// FOUR-NEXT:        %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> to tensor<?xf32>
// FOUR-NEXT:        linalg_ext.softmax dimension(1) ins(%[[N]] : tensor<?x?xf32>) outs(%[[OT]], %[[MT]], %[[AT]], %[[ST]] : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
