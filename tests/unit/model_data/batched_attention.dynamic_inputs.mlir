#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @batched_attention(%arg0: tensor<?x4x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>) -> tensor<?x4x8xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<5.000000e-01> : tensor<f32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x4x8xf32>
    %0 = arith.index_cast %dim : index to i64
    %1 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %1, "negative values not allowed in new dimensions"
    %2 = tensor.empty(%dim) : tensor<?x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %4 = tensor.empty(%dim) : tensor<?x4x8xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %6 = linalg.batch_matmul ins(%arg0, %3 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%5 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %expanded = tensor.expand_shape %6 [[0], [1], [2, 3]] output_shape [%dim, 4, 2, 4] : tensor<?x4x8xf32> into tensor<?x4x2x4xf32>
    %7 = tensor.empty(%dim) : tensor<?x2x4x4xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<?x4x2x4xf32>) outs(%7 : tensor<?x2x4x4xf32>) permutation = [0, 2, 1, 3] 
    cf.assert %1, "negative values not allowed in new dimensions"
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg2 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %9 = linalg.batch_matmul ins(%arg0, %8 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%5 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %expanded_2 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [%dim, 4, 2, 4] : tensor<?x4x8xf32> into tensor<?x4x2x4xf32>
    %transposed_3 = linalg.transpose ins(%expanded_2 : tensor<?x4x2x4xf32>) outs(%7 : tensor<?x2x4x4xf32>) permutation = [0, 2, 3, 1] 
    cf.assert %1, "negative values not allowed in new dimensions"
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg3 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %11 = linalg.batch_matmul ins(%arg0, %10 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%5 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %expanded_4 = tensor.expand_shape %11 [[0], [1], [2, 3]] output_shape [%dim, 4, 2, 4] : tensor<?x4x8xf32> into tensor<?x4x2x4xf32>
    %transposed_5 = linalg.transpose ins(%expanded_4 : tensor<?x4x2x4xf32>) outs(%7 : tensor<?x2x4x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %collapsed_6 = tensor.collapse_shape %transposed_3 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %12 = arith.muli %dim, %c2 : index
    %13 = tensor.empty(%12) : tensor<?x4x4xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %15 = linalg.batch_matmul ins(%collapsed, %collapsed_6 : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%14 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %16 = arith.divsi %12, %c2 : index
    %expanded_7 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [%16, 2, 4, 4] : tensor<?x4x4xf32> into tensor<?x2x4x4xf32>
    %17 = tensor.empty(%16) : tensor<?x2x4x4xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_7, %cst_1 : tensor<?x2x4x4xf32>, tensor<f32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %44 = arith.mulf %in, %in_14 : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %19 = tensor.empty(%16) : tensor<?x2x4xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<?x2x4xi64>) -> tensor<?x2x4xi64>
    %21 = tensor.empty(%16) : tensor<?x2x4xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
    %23:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<?x2x4x4xf32>) outs(%22, %20 : tensor<?x2x4xf32>, tensor<?x2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_14: i64):
      %44 = linalg.index 3 : index
      %45 = arith.index_cast %44 : index to i64
      %46 = arith.maximumf %in, %out : f32
      %47 = arith.cmpf ogt, %in, %out : f32
      %48 = arith.select %47, %45, %out_14 : i64
      linalg.yield %46, %48 : f32, i64
    } -> (tensor<?x2x4xf32>, tensor<?x2x4xi64>)
    %expanded_8 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [%16, 2, 4, 1] : tensor<?x2x4xf32> into tensor<?x2x4x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_8 : tensor<?x2x4x4xf32>, tensor<?x2x4x1xf32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %44 = arith.subf %in, %in_14 : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %25 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<?x2x4x4xf32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %44 = math.exp %in : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %26 = tensor.empty(%16) : tensor<?x2x4x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<?x2x4x1xf32>) -> tensor<?x2x4x1xf32>
    %28 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<?x2x4x4xf32>) outs(%27 : tensor<?x2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %44 = arith.addf %in, %out : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<?x2x4x4xf32>, tensor<?x2x4x1xf32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %in_14: f32, %out: f32):
      %44 = arith.divf %in, %in_14 : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %30 = arith.maxui %16, %dim : index
    %collapsed_9 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_5 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %31 = arith.muli %30, %c2 : index
    %32 = tensor.empty(%31) : tensor<?x4x4xf32>
    %33 = linalg.fill ins(%cst : f32) outs(%32 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %34 = linalg.batch_matmul ins(%collapsed_9, %collapsed_10 : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%33 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %35 = arith.divsi %31, %c2 : index
    %expanded_11 = tensor.expand_shape %34 [[0, 1], [2], [3]] output_shape [%35, 2, 4, 4] : tensor<?x4x4xf32> into tensor<?x2x4x4xf32>
    %36 = tensor.empty(%35) : tensor<?x4x2x4xf32>
    %transposed_12 = linalg.transpose ins(%expanded_11 : tensor<?x2x4x4xf32>) outs(%36 : tensor<?x4x2x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_13 = tensor.collapse_shape %transposed_12 [[0], [1], [2, 3]] : tensor<?x4x2x4xf32> into tensor<?x4x8xf32>
    %37 = arith.index_cast %35 : index to i64
    %38 = arith.cmpi sge, %37, %c0_i64 : i64
    cf.assert %38, "negative values not allowed in new dimensions"
    %39 = tensor.empty(%35) : tensor<?x8x8xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg4 : tensor<8x8xf32>) outs(%39 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %41 = tensor.empty(%35) : tensor<?x4x8xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %43 = linalg.batch_matmul ins(%collapsed_13, %40 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%42 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    return %43 : tensor<?x4x8xf32>
  }
}
