// linalg.transpose of a constant weight (torch-mlir's GEMM with transB)
// becomes the transposed constant: the matmul reads it directly.
// RUN: xdsl-opt %s -p linalg-fold-constants-ext | filecheck %s

// CHECK-LABEL: func.func @gemm_trans_b(
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00, 7.000000e+00, -1.000000e+01], [2.000000e+00, 5.000000e+00, 8.000000e+00, 1.100000e+01], [3.000000e+00, -6.000000e+00, 9.000000e+00, 1.200000e+01]]> : tensor<3x4xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.matmul ins(%x, %[[W]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[F]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x4xf32>
func.func @gemm_trans_b(%x: tensor<2x3xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, -6.0], [7.0, 8.0, 9.0], [-10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %wt_init = tensor.empty() : tensor<3x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x3xf32>) outs(%wt_init : tensor<3x4xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.matmul ins(%x, %wt : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// A transpose written as a linalg.generic, of a 3-d integer constant; its
// init is an argument the body does not read (upstream folds this case
// too), so the argument is simply no longer used.
// CHECK-LABEL: func.func @generic_transpose_3d(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}{{\[}}[0, 3], [1, 4], [2, 5]], {{\[}}[6, 9], [7, 10], [8, 11]]]> : tensor<2x3x2xi16>
// CHECK-NEXT:    func.return %[[C]] : tensor<2x3x2xi16>
func.func @generic_transpose_3d(%init: tensor<2x3x2xi16>) -> tensor<2x3x2xi16> {
  %c = arith.constant dense<[[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]> : tensor<2x2x3xi16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x2x3xi16>) outs(%init : tensor<2x3x2xi16>) {
  ^bb0(%a: i16, %o: i16):
    linalg.yield %a : i16
  } -> tensor<2x3x2xi16>
  return %t : tensor<2x3x2xi16>
}

// A transpose of a splat constant is a splat constant.
// CHECK-LABEL: func.func @splat(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<-2.500000e-01> : tensor<3x2xf64>
// CHECK-NEXT:    func.return %[[C]] : tensor<3x2xf64>
func.func @splat() -> tensor<3x2xf64> {
  %c = arith.constant dense<-0.25> : tensor<2x3xf64>
  %e = tensor.empty() : tensor<3x2xf64>
  %t = linalg.transpose ins(%c : tensor<2x3xf64>) outs(%e : tensor<3x2xf64>) permutation = [1, 0]
  return %t : tensor<3x2xf64>
}
