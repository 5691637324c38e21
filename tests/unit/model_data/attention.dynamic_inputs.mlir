#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @attention(%arg0: tensor<?x8x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4x4xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<4x4xf32>) -> tensor<?x8x4xf32> {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<2.000000e+00> : tensor<f32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x8x4xf32>
    %0 = arith.index_cast %dim : index to i64
    %1 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %1, "negative values not allowed in new dimensions"
    %2 = tensor.empty(%dim) : tensor<?x4x4xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<4x4xf32>) outs(%2 : tensor<?x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x4xf32>
    %4 = tensor.empty(%dim) : tensor<?x8x4xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    %6 = linalg.batch_matmul ins(%arg0, %3 : tensor<?x8x4xf32>, tensor<?x4x4xf32>) outs(%5 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    cf.assert %1, "negative values not allowed in new dimensions"
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<4x4xf32>) outs(%2 : tensor<?x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x4xf32>
    %8 = linalg.batch_matmul ins(%arg0, %7 : tensor<?x8x4xf32>, tensor<?x4x4xf32>) outs(%5 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    cf.assert %1, "negative values not allowed in new dimensions"
    %9 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3 : tensor<4x4xf32>) outs(%2 : tensor<?x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x4xf32>
    %10 = linalg.batch_matmul ins(%arg0, %9 : tensor<?x8x4xf32>, tensor<?x4x4xf32>) outs(%5 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    %11 = tensor.empty(%dim) : tensor<?x4x8xf32>
    %transposed = linalg.transpose ins(%8 : tensor<?x8x4xf32>) outs(%11 : tensor<?x4x8xf32>) permutation = [0, 2, 1] 
    %12 = tensor.empty(%dim) : tensor<?x8x8xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<?x8x8xf32>) -> tensor<?x8x8xf32>
    %14 = linalg.batch_matmul ins(%6, %transposed : tensor<?x8x4xf32>, tensor<?x4x8xf32>) outs(%13 : tensor<?x8x8xf32>) -> tensor<?x8x8xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %cst_1 : tensor<?x8x8xf32>, tensor<f32>) outs(%12 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %35 = arith.divf %in, %in_2 : f32
      linalg.yield %35 : f32
    } -> tensor<?x8x8xf32>
    %16 = tensor.empty(%dim) : tensor<?x8xi64>
    %17 = linalg.fill ins(%c0_i64 : i64) outs(%16 : tensor<?x8xi64>) -> tensor<?x8xi64>
    %18 = tensor.empty(%dim) : tensor<?x8xf32>
    %19 = linalg.fill ins(%cst_0 : f32) outs(%18 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %20:2 = linalg.generic {indexing_maps = [#map1, #map3, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%15 : tensor<?x8x8xf32>) outs(%19, %17 : tensor<?x8xf32>, tensor<?x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %35 = linalg.index 2 : index
      %36 = arith.index_cast %35 : index to i64
      %37 = arith.maximumf %in, %out : f32
      %38 = arith.cmpf ogt, %in, %out : f32
      %39 = arith.select %38, %36, %out_2 : i64
      linalg.yield %37, %39 : f32, i64
    } -> (tensor<?x8xf32>, tensor<?x8xi64>)
    %expanded = tensor.expand_shape %20#0 [[0], [1, 2]] output_shape [%dim, 8, 1] : tensor<?x8xf32> into tensor<?x8x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15, %expanded : tensor<?x8x8xf32>, tensor<?x8x1xf32>) outs(%12 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %35 = arith.subf %in, %in_2 : f32
      linalg.yield %35 : f32
    } -> tensor<?x8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21 : tensor<?x8x8xf32>) outs(%12 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.exp %in : f32
      linalg.yield %35 : f32
    } -> tensor<?x8x8xf32>
    %23 = tensor.empty(%dim) : tensor<?x8x1xf32>
    %24 = linalg.fill ins(%cst : f32) outs(%23 : tensor<?x8x1xf32>) -> tensor<?x8x1xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%22 : tensor<?x8x8xf32>) outs(%24 : tensor<?x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.addf %in, %out : f32
      linalg.yield %35 : f32
    } -> tensor<?x8x1xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22, %25 : tensor<?x8x8xf32>, tensor<?x8x1xf32>) outs(%12 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %35 = arith.divf %in, %in_2 : f32
      linalg.yield %35 : f32
    } -> tensor<?x8x8xf32>
    %27 = tensor.empty(%dim) : tensor<?x8x4xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    %29 = linalg.batch_matmul ins(%26, %10 : tensor<?x8x8xf32>, tensor<?x8x4xf32>) outs(%28 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    %30 = arith.index_cast %dim : index to i64
    %31 = arith.cmpi sge, %30, %c0_i64 : i64
    cf.assert %31, "negative values not allowed in new dimensions"
    %32 = tensor.empty(%dim) : tensor<?x4x4xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4 : tensor<4x4xf32>) outs(%32 : tensor<?x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x4x4xf32>
    %34 = linalg.batch_matmul ins(%29, %33 : tensor<?x8x4xf32>, tensor<?x4x4xf32>) outs(%28 : tensor<?x8x4xf32>) -> tensor<?x8x4xf32>
    return %34 : tensor<?x8x4xf32>
  }
}
