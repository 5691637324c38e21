// torch-mlir's linalg-on-tensors for ONNX Gemm(transB=1) + Relu, small: at
// to=tensors the constant transpose of the weight is folded (the matmul reads
// the transposed constant), and bias and relu are one elementwise generic.
// RUN: linalg-ext-opt %s -p "linalg-ext-model-pipeline{to=tensors}" | filecheck %s
// A fold limit below the weight's size does not fold the transpose: the
// matmul, generalised, reads the weight through a transposed map instead.
// RUN: linalg-ext-opt %s -p "linalg-ext-model-pipeline{to=tensors fold-limit=4}" | filecheck %s --check-prefix=LIMIT

// CHECK-LABEL: func.func @gemm_relu(
// CHECK-SAME:      %[[X:.*]]: tensor<?x3xf32>) -> tensor<?x2xf32> {
// CHECK-DAG:     %[[WT:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, -5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[5.000000e-01, -2.500000e-01]> : tensor<2xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[X]], %[[WT]] : tensor<?x3xf32>, tensor<3x2xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[MM]], %[[B]] : tensor<?x2xf32>, tensor<2xf32>)
// CHECK:           arith.addf
// CHECK-NEXT:      arith.cmpf ugt
// CHECK-NEXT:      arith.select
// CHECK-NEXT:      linalg.yield
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[R]] : tensor<?x2xf32>

// LIMIT-LABEL: func.func @gemm_relu(
// LIMIT-SAME:      %[[X:.*]]: tensor<?x3xf32>) -> tensor<?x2xf32> {
// LIMIT:         %[[W:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, -5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// LIMIT-NOT:     linalg.transpose
// LIMIT:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<?x3xf32>, tensor<2x3xf32>)
// LIMIT:           arith.mulf
// LIMIT-NEXT:      arith.addf
// LIMIT:         linalg.generic
// LIMIT-NOT:     linalg.generic
// LIMIT-NOT:     linalg.transpose
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @gemm_relu(%arg0: tensor<?x3xf32>) -> tensor<?x2xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
    %cst_1 = arith.constant dense<[0.5, -0.25]> : tensor<2xf32>
    %0 = tensor.empty() : tensor<3x2xf32>
    %transposed = linalg.transpose ins(%cst_0 : tensor<2x3xf32>) outs(%0 : tensor<3x2xf32>) permutation = [1, 0]
    %dim = tensor.dim %arg0, %c0 : tensor<?x3xf32>
    %1 = tensor.empty(%dim) : tensor<?x2xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x2xf32>) -> tensor<?x2xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<?x3xf32>, tensor<3x2xf32>) outs(%2 : tensor<?x2xf32>) -> tensor<?x2xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_1 : tensor<?x2xf32>, tensor<2xf32>) outs(%1 : tensor<?x2xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %6 = arith.addf %in, %in_2 : f32
      linalg.yield %6 : f32
    } -> tensor<?x2xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<?x2xf32>) outs(%1 : tensor<?x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %6 = arith.cmpf ugt, %in, %cst : f32
      %7 = arith.select %6, %in, %cst : f32
      linalg.yield %7 : f32
    } -> tensor<?x2xf32>
    return %5 : tensor<?x2xf32>
  }
}
