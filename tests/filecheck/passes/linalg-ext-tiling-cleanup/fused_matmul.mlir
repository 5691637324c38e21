// What tile-and-fuse of matmul + bias leaves before clean-up (the shape of
// upstream's transform.structured.fuse output): the untiled fill and matmul
// still there and unused, duplicated index arithmetic, an unused
// tensor.empty and its slice per tile. After the clean-up the innermost
// body has the two clamped sizes, the slices, the three tiled ops and the
// insertion, as after mlir-opt --canonicalize --cse, except that the fill
// writes into a tensor.empty of the tile's shape, not a slice of the whole
// tensor.empty (upstream's fold_tensor_empty patterns, which its
// canonicalization does not include).
// RUN: xdsl-opt %s -p linalg-ext-tiling-cleanup | filecheck %s

// CHECK-LABEL: func.func @matmul_bias
// CHECK-NOT:   linalg.matmul
// CHECK:       scf.for
// CHECK-NEXT:  scf.for
// CHECK-NEXT:  %[[M:.*]] = affine.min
// CHECK-NEXT:  %[[N:.*]] = affine.min
// CHECK-NEXT:  tensor.extract_slice %a[
// CHECK-NEXT:  tensor.extract_slice %b[
// CHECK-NEXT:  %[[E:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK-NEXT:  linalg.fill {{.*}} outs(%[[E]] :
// CHECK-NEXT:  linalg.matmul
// CHECK-NEXT:  tensor.extract_slice %bias[
// CHECK-NEXT:  tensor.extract_slice
// CHECK-NEXT:  linalg.add
// CHECK-NEXT:  tensor.insert_slice
// CHECK-NEXT:  scf.yield
func.func @matmul_bias(%a: tensor<10x12xf32>, %b: tensor<12x7xf32>, %bias: tensor<10x7xf32>) -> tensor<10x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x7xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<10x7xf32>) -> tensor<10x7xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<10x12xf32>, tensor<12x7xf32>) outs(%fill : tensor<10x7xf32>) -> tensor<10x7xf32>
  %c0 = arith.constant 0 : index
  %c0_0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %c7 = arith.constant 7 : index
  %c4 = arith.constant 4 : index
  %c4_1 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%acc = %e) -> (tensor<10x7xf32>) {
    %r2 = scf.for %j = %c0_0 to %c7 step %c4_1 iter_args(%acc2 = %acc) -> (tensor<10x7xf32>) {
      %c10_2 = arith.constant 10 : index
      %m = affine.min affine_map<(d0) -> (-d0 + 10, 4)>(%i)
      %n = affine.min affine_map<(d0) -> (-d0 + 7, 4)>(%j)
      %m1 = affine.apply affine_map<(d0) -> (d0 - 1)>(%m)
      %n1 = affine.apply affine_map<(d0) -> (d0 - 1)>(%n)
      %m1b = affine.apply affine_map<(d0) -> (d0 - 1)>(%m)
      %as = tensor.extract_slice %a[%i, 0] [%m, 12] [1, 1] : tensor<10x12xf32> to tensor<?x12xf32>
      %bs = tensor.extract_slice %b[0, %j] [12, %n] [1, 1] : tensor<12x7xf32> to tensor<12x?xf32>
      %e2 = tensor.empty() : tensor<10x7xf32>
      %e2s = tensor.extract_slice %e2[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %es = tensor.extract_slice %e[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
      %fills = tensor.extract_slice %fill[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %mms = linalg.matmul ins(%as, %bs : tensor<?x12xf32>, tensor<12x?xf32>) outs(%fs : tensor<?x?xf32>) -> tensor<?x?xf32>
      %mmdead = tensor.extract_slice %mm[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %biass = tensor.extract_slice %bias[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %os = tensor.extract_slice %acc2[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %sum = linalg.add ins(%mms, %biass : tensor<?x?xf32>, tensor<?x?xf32>) outs(%os : tensor<?x?xf32>) -> tensor<?x?xf32>
      %w = tensor.insert_slice %sum into %acc2[%i, %j] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<10x7xf32>
      scf.yield %w : tensor<10x7xf32>
    }
    scf.yield %r2 : tensor<10x7xf32>
  }
  return %r : tensor<10x7xf32>
}
