// linalg.batch_matmul and linalg_ext.batch_matmul (layout "nt": the rhs is
// stored (b, n, k)), each with an exp computing its lhs and a fill zeroing
// its init, tiled along k. Loops (b, m, n, k) tiled 2,4,0,4 over extents
// 3,5,7,6: partial tiles on every tiled loop, n whole. k is a reduction: the
// fill stays before the loops (fused there it would re-zero the partial sums
// on every k step); the exp is computed per (b, m, k) tile. With
// `interchange=3,0,1,2` and sizes 1,0,3,4 the k loop is outermost, then b,
// then n.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2,4,0,4}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=1,0,3,4 interchange=3,0,1,2}' | filecheck %s --check-prefix=KOUT

// CHECK-LABEL: func.func @batch_matmul_of_exp
// KOUT-LABEL: func.func @batch_matmul_of_exp
func.func @batch_matmul_of_exp(%a: tensor<3x5x6xf32>, %b: tensor<3x6x7xf32>) -> tensor<3x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x5x6xf32>
  %x = linalg.exp ins(%a : tensor<3x5x6xf32>) outs(%ea : tensor<3x5x6xf32>) -> tensor<3x5x6xf32>
  %e = tensor.empty() : tensor<3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  %r = linalg.batch_matmul ins(%x, %b : tensor<3x5x6xf32>, tensor<3x6x7xf32>) outs(%f : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  return %r : tensor<3x5x7xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
// CHECK-NOT:      linalg
// CHECK:          %r = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_B:.*]] = %f) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:       scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_M:.*]] = %[[ACC_B]]) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_M]]) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:           %[[SB:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 3), 2)> (%[[B]])
// CHECK-NEXT:           %[[SM:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 5), 4)> (%[[M]])
// CHECK-NEXT:           %[[SK:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[K]])
// CHECK-NEXT:           %[[A:.*]] = tensor.extract_slice %a[%[[B]], %[[M]], %[[K]]] [%[[SB]], %[[SM]], %[[SK]]] [1, 1, 1] : tensor<3x5x6xf32> to tensor<?x?x?xf32>
// CHECK-NEXT:           %[[EA:.*]] = tensor.empty(%[[SB]], %[[SM]], %[[SK]]) : tensor<?x?x?xf32>
// CHECK-NEXT:           %[[X:.*]] = linalg.exp ins(%[[A]] : tensor<?x?x?xf32>) outs(%[[EA]] : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:           %[[RHS:.*]] = tensor.extract_slice %b[%[[B]], %[[K]], 0] [%[[SB]], %[[SK]], 7] [1, 1, 1] : tensor<3x6x7xf32> to tensor<?x?x7xf32>
// CHECK-NEXT:           %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], %[[M]], 0] [%[[SB]], %[[SM]], 7] [1, 1, 1] : tensor<3x5x7xf32> to tensor<?x?x7xf32>
// CHECK-NEXT:           %[[T:.*]] = linalg.batch_matmul ins(%[[X]], %[[RHS]] : tensor<?x?x?xf32>, tensor<?x?x7xf32>) outs(%[[D]] : tensor<?x?x7xf32>) -> tensor<?x?x7xf32>
// CHECK-NEXT:           %[[U:.*]] = tensor.insert_slice %[[T]] into %[[ACC]][%[[B]], %[[M]], 0] [%[[SB]], %[[SM]], 7] [1, 1, 1] : tensor<?x?x7xf32> into tensor<3x5x7xf32>
// CHECK-NEXT:           scf.yield %[[U]] : tensor<3x5x7xf32>
// KOUT:           %f = linalg.fill
// KOUT-NOT:       linalg
// KOUT:           %r = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_K:.*]] = %f) -> (tensor<3x5x7xf32>) {
// KOUT-NEXT:        scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_B:.*]] = %[[ACC_K]]) -> (tensor<3x5x7xf32>) {
// KOUT-NEXT:          scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_B]]) -> (tensor<3x5x7xf32>) {
// KOUT-NEXT:            %[[SK:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[K]])
// KOUT-NEXT:            %[[SN:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[N]])
// KOUT-NEXT:            %[[A:.*]] = tensor.extract_slice %a[%[[B]], 0, %[[K]]] [1, 5, %[[SK]]] [1, 1, 1] : tensor<3x5x6xf32> to tensor<1x5x?xf32>
// KOUT-NEXT:            %[[EA:.*]] = tensor.empty(%[[SK]]) : tensor<1x5x?xf32>
// KOUT-NEXT:            %[[X:.*]] = linalg.exp ins(%[[A]] : tensor<1x5x?xf32>) outs(%[[EA]] : tensor<1x5x?xf32>) -> tensor<1x5x?xf32>
// KOUT-NEXT:            %[[RHS:.*]] = tensor.extract_slice %b[%[[B]], %[[K]], %[[N]]] [1, %[[SK]], %[[SN]]] [1, 1, 1] : tensor<3x6x7xf32> to tensor<1x?x?xf32>
// KOUT-NEXT:            %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0, %[[N]]] [1, 5, %[[SN]]] [1, 1, 1] : tensor<3x5x7xf32> to tensor<1x5x?xf32>
// KOUT-NEXT:            %[[T:.*]] = linalg.batch_matmul ins(%[[X]], %[[RHS]] : tensor<1x5x?xf32>, tensor<1x?x?xf32>) outs(%[[D]] : tensor<1x5x?xf32>) -> tensor<1x5x?xf32>
// KOUT-NEXT:            tensor.insert_slice %[[T]] into %[[ACC]][%[[B]], 0, %[[N]]] [1, 5, %[[SN]]] [1, 1, 1] : tensor<1x5x?xf32> into tensor<3x5x7xf32>

// CHECK-LABEL: func.func @ext_batch_matmul_nt
// KOUT-LABEL: func.func @ext_batch_matmul_nt
func.func @ext_batch_matmul_nt(%a: tensor<3x5x6xf32>, %b: tensor<3x7x6xf32>) -> tensor<3x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<3x5x6xf32>
  %x = linalg.exp ins(%a : tensor<3x5x6xf32>) outs(%ea : tensor<3x5x6xf32>) -> tensor<3x5x6xf32>
  %e = tensor.empty() : tensor<3x5x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  %r = linalg_ext.batch_matmul ins(%x, %b : tensor<3x5x6xf32>, tensor<3x7x6xf32>) outs(%f : tensor<3x5x7xf32>) layout = "nt"
  return %r : tensor<3x5x7xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
// CHECK-NOT:      linalg
// CHECK:          %r = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_B:.*]] = %f) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:       scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_M:.*]] = %[[ACC_B]]) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_M]]) -> (tensor<3x5x7xf32>) {
// CHECK-NEXT:           %[[SB:.*]] = affine.min
// CHECK-NEXT:           %[[SM:.*]] = affine.min
// CHECK-NEXT:           %[[SK:.*]] = affine.min
// CHECK-NEXT:           %[[A:.*]] = tensor.extract_slice %a[%[[B]], %[[M]], %[[K]]] [%[[SB]], %[[SM]], %[[SK]]] [1, 1, 1]
// CHECK-NEXT:           %[[EA:.*]] = tensor.empty(%[[SB]], %[[SM]], %[[SK]])
// CHECK-NEXT:           %[[X:.*]] = linalg.exp ins(%[[A]] : tensor<?x?x?xf32>) outs(%[[EA]] : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
// CHECK-NEXT:           %[[RHS:.*]] = tensor.extract_slice %b[%[[B]], 0, %[[K]]] [%[[SB]], 7, %[[SK]]] [1, 1, 1] : tensor<3x7x6xf32> to tensor<?x7x?xf32>
// CHECK-NEXT:           %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], %[[M]], 0] [%[[SB]], %[[SM]], 7] [1, 1, 1] : tensor<3x5x7xf32> to tensor<?x?x7xf32>
// CHECK-NEXT:           %[[T:.*]] = linalg_ext.batch_matmul ins(%[[X]], %[[RHS]] : tensor<?x?x?xf32>, tensor<?x7x?xf32>) outs(%[[D]] : tensor<?x?x7xf32>) layout = "nt"
// CHECK-NEXT:           tensor.insert_slice %[[T]] into %[[ACC]][%[[B]], %[[M]], 0] [%[[SB]], %[[SM]], 7] [1, 1, 1] : tensor<?x?x7xf32> into tensor<3x5x7xf32>
// KOUT:           %f = linalg.fill
// KOUT-NOT:       linalg
// KOUT:           %r = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_K:.*]] = %f) -> (tensor<3x5x7xf32>) {
// KOUT-NEXT:        scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_B:.*]] = %[[ACC_K]]) -> (tensor<3x5x7xf32>) {
// KOUT-NEXT:          scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_B]]) -> (tensor<3x5x7xf32>) {
// KOUT:                 %[[X:.*]] = linalg.exp
// KOUT-NEXT:            %[[RHS:.*]] = tensor.extract_slice %b[%[[B]], %[[N]], %[[K]]] [1, %{{.*}}, %{{.*}}] [1, 1, 1] : tensor<3x7x6xf32> to tensor<1x?x?xf32>
// KOUT-NEXT:            %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[B]], 0, %[[N]]]
// KOUT-NEXT:            linalg_ext.batch_matmul ins(%[[X]], %[[RHS]] : tensor<1x5x?xf32>, tensor<1x?x?xf32>) outs(%[[D]] : tensor<1x5x?xf32>) layout = "nt"
