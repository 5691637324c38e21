#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @attention(%arg0: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<[[-0.0196967926, 0.0223674122, 0.938444256, -0.550950527], [0.173848405, 0.519639969, -0.0457625762, -0.282558769], [-1.06482482, -0.350403219, -0.109324239, -0.686366498], [0.945483446, 0.553545773, 0.329060733, 0.584811926]]> : tensor<4x4xf32>
    %cst_2 = arith.constant dense<[[-0.175799161, -0.262607783, 0.698707103, 0.950285255], [-7.309380e-01, -0.106510527, -0.402551621, 0.596877098], [-0.246158332, -0.382332146, 0.782339572, -0.280359983], [-0.326170713, 0.0127531197, 0.0871381983, -0.00238128682]]> : tensor<4x4xf32>
    %cst_3 = arith.constant dense<[[-0.0390685163, 0.0624172054, 1.16571224, 0.0373724438], [0.254714251, 0.0662932172, -0.297593683, 0.20292151], [0.356933892, 0.352933913, 0.382377088, 0.467213601], [1.05325377, -0.162125379, -0.139773458, 0.397391826]]> : tensor<4x4xf32>
    %cst_4 = arith.constant dense<2.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<[[-0.843806624, 0.507894635, -0.790270567, 0.319633156], [-0.969372034, 0.42266953, 0.46613124, 0.123783924], [-0.0699121729, -0.0993096381, 0.523836315, -0.0817875638], [-1.18060946, -0.470077217, 0.372970849, -0.134215489]]> : tensor<4x4xf32>
    %0 = tensor.empty() : tensor<2x4x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %2 = tensor.empty() : tensor<2x8x4xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %6 = linalg.batch_matmul ins(%arg0, %5 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %8 = linalg.batch_matmul ins(%arg0, %7 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %9 = tensor.empty() : tensor<2x4x8xf32>
    %transposed = linalg.transpose ins(%6 : tensor<2x8x4xf32>) outs(%9 : tensor<2x4x8xf32>) permutation = [0, 2, 1] 
    %10 = tensor.empty() : tensor<2x8x8xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %12 = linalg.batch_matmul ins(%4, %transposed : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%11 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %cst_4 : tensor<2x8x8xf32>, tensor<f32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.divf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %14 = tensor.empty() : tensor<2x8xi64>
    %15 = linalg.fill ins(%c0_i64 : i64) outs(%14 : tensor<2x8xi64>) -> tensor<2x8xi64>
    %16 = tensor.empty() : tensor<2x8xf32>
    %17 = linalg.fill ins(%cst_0 : f32) outs(%16 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %18:2 = linalg.generic {indexing_maps = [#map1, #map3, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%13 : tensor<2x8x8xf32>) outs(%17, %15 : tensor<2x8xf32>, tensor<2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %28 = linalg.index 2 : index
      %29 = arith.index_cast %28 : index to i64
      %30 = arith.maximumf %in, %out : f32
      %31 = arith.cmpf ogt, %in, %out : f32
      %32 = arith.select %31, %29, %out_6 : i64
      linalg.yield %30, %32 : f32, i64
    } -> (tensor<2x8xf32>, tensor<2x8xi64>)
    %expanded = tensor.expand_shape %18#0 [[0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13, %expanded : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.subf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<2x8x8xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = math.exp %in : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %21 = tensor.empty() : tensor<2x8x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%20 : tensor<2x8x8xf32>) outs(%22 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = arith.addf %in, %out : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.divf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %25 = linalg.batch_matmul ins(%24, %8 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_5 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %27 = linalg.batch_matmul ins(%25, %26 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    return %27 : tensor<2x8x4xf32>
  }
}
