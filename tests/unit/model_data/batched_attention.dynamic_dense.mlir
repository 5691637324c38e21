#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @batched_attention(%arg0: tensor<?x4x8xf32>) -> tensor<?x4x8xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<[[0.306735545, -0.057065066, 0.504956901, 0.380991548, 0.273748904, 0.0876452401, -0.21027334, 0.495563447], [0.00264792074, -0.115556106, 0.483825296, -0.34496218, -0.565146089, -0.426347911, -0.0352513157, -0.515425682], [-0.536243737, -0.0637740642, -0.471322984, -0.203366041, 0.617813169, -0.0431029163, -0.585188031, -0.599328399], [0.658470332, -0.015430958, -0.233368903, -0.428107947, -0.558241367, 0.00263322168, 0.448513538, 0.021025138], [-0.742245793, -0.380631655, -0.277949125, -0.479418069, -0.28456676, 0.0104245692, 0.0329969414, 0.107220374], [-0.0450952612, 0.0475622118, 0.593721866, -0.21733363, -3.856510e-03, -0.715083599, -0.24031885, -0.134834588], [-0.054811772, -0.787609816, 0.0177188199, -0.536454916, 0.44360438, -0.291236848, 0.63027513, 0.115831502], [0.673748314, 0.46444428, 0.25493598, -0.577549875, -0.337646723, 0.159486905, -0.124978296, -0.231234938]]> : tensor<8x8xf32>
    %cst_2 = arith.constant dense<[[0.161829337, -0.563344419, -0.197380438, 0.0821223556, -0.36858052, -0.0642773435, -0.159397125, 3.497010e-01], [0.517689347, 0.549126327, -0.47509405, -0.124264039, 0.5273633, -0.175897077, 0.112294368, -0.0397262238], [0.221837029, -0.113441274, 0.315612644, -0.178574145, -0.0318822078, -0.215994731, 1.11837387, 0.0525178425], [0.210876986, -0.204495698, 0.409648687, 0.0493277609, 0.399011254, 0.387792021, 0.0541035309, 0.10376513], [0.430205345, -0.437857062, -0.781796395, -0.355863929, 0.200694755, -0.314380378, -0.0591998622, 0.131940052], [0.207818016, 0.112394519, 0.393928319, 0.763558745, 0.105373524, 0.0277491882, 0.340778053, 0.194909588], [-0.462655485, -0.111263104, -0.224898666, -0.193626225, -0.348069847, 0.0165718719, -0.0616830103, -0.246614054], [0.0988125279, 0.281105787, 0.120824404, -0.0458981618, 0.0525943413, -0.386263788, 0.156710833, 0.336825728]]> : tensor<8x8xf32>
    %cst_3 = arith.constant dense<[[0.123851307, -0.511244833, -0.0448289029, -0.178849772, -0.221764594, 0.263300925, -0.0934702828, -0.0102748284], [0.00819403213, 0.195068538, -0.0394866355, 0.565596461, 0.0181625914, 0.0129187182, -0.0303512327, -0.542570829], [0.347686112, 0.566393256, -0.0950918645, 5.948210e-01, -0.177237913, -0.6298877, -0.00356203457, -0.0723579302], [-0.413545489, 0.179865956, -0.0589927323, 0.40116936, 0.501535237, -0.228970602, 0.0822472497, 0.248842344], [-0.440023214, 0.37155056, 0.603833079, 0.353694022, 0.568609595, 0.0148160104, 0.110915154, -0.146253958], [0.235583737, -0.243602335, 0.377970546, -0.125405908, 0.279260635, -0.575244248, 0.618377447, 0.272250354], [0.08087904, 0.183563486, 0.330890626, -0.166522235, -0.467273325, 0.2957623, 0.319860905, -0.249105349], [0.00725965109, 0.362113476, -0.0219167639, -0.440832645, 0.823917329, 0.145031333, 0.99341768, -0.206441343]]> : tensor<8x8xf32>
    %cst_4 = arith.constant dense<5.000000e-01> : tensor<f32>
    %cst_5 = arith.constant dense<[[0.262828827, -0.0412382558, -0.2555857, 0.208928525, -0.281720281, 0.217026964, 0.18182312, -0.456904709], [-0.443620324, 0.332787186, 0.121577226, -0.047655873, 0.47721228, 0.60701859, 0.059316393, -0.176611885], [0.204924688, -0.148437694, 0.0302817561, -0.167694017, -0.31821689, -0.349275172, -0.148150235, -0.00794553942], [0.101304583, -0.0127648516, -0.0229527876, 0.0933949053, -0.483190686, -0.182798058, -0.513486624, 0.193508521], [6.866890e-01, 0.414382398, 0.224210009, 0.43957898, -0.200954631, 0.0253232513, 0.323537767, 0.111148588], [-0.00954454113, 0.0625632703, -0.569871366, 0.1134547, 0.354265362, 0.0269074216, 0.434511125, -0.516560674], [-0.279918641, 0.262583613, -0.0055161044, -0.428254843, -0.60324347, -0.454846025, 0.284528702, 0.219016224], [0.278903931, 0.196105853, -0.0307222456, 0.17169708, 0.539962113, -2.083110e-01, -0.549495816, -0.496715814]]> : tensor<8x8xf32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x4x8xf32>
    %0 = arith.index_cast %dim : index to i64
    %1 = arith.cmpi sge, %0, %c0_i64 : i64
    cf.assert %1, "negative values not allowed in new dimensions"
    %2 = tensor.empty(%dim) : tensor<?x8x8xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
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
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %9 = linalg.batch_matmul ins(%arg0, %8 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%5 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %expanded_6 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [%dim, 4, 2, 4] : tensor<?x4x8xf32> into tensor<?x4x2x4xf32>
    %transposed_7 = linalg.transpose ins(%expanded_6 : tensor<?x4x2x4xf32>) outs(%7 : tensor<?x2x4x4xf32>) permutation = [0, 2, 3, 1] 
    cf.assert %1, "negative values not allowed in new dimensions"
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<8x8xf32>) outs(%2 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %11 = linalg.batch_matmul ins(%arg0, %10 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%5 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %expanded_8 = tensor.expand_shape %11 [[0], [1], [2, 3]] output_shape [%dim, 4, 2, 4] : tensor<?x4x8xf32> into tensor<?x4x2x4xf32>
    %transposed_9 = linalg.transpose ins(%expanded_8 : tensor<?x4x2x4xf32>) outs(%7 : tensor<?x2x4x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_7 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %12 = arith.muli %dim, %c2 : index
    %13 = tensor.empty(%12) : tensor<?x4x4xf32>
    %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %15 = linalg.batch_matmul ins(%collapsed, %collapsed_10 : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%14 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %16 = arith.divsi %12, %c2 : index
    %expanded_11 = tensor.expand_shape %15 [[0, 1], [2], [3]] output_shape [%16, 2, 4, 4] : tensor<?x4x4xf32> into tensor<?x2x4x4xf32>
    %17 = tensor.empty(%16) : tensor<?x2x4x4xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_11, %cst_4 : tensor<?x2x4x4xf32>, tensor<f32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %44 = arith.mulf %in, %in_18 : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %19 = tensor.empty(%16) : tensor<?x2x4xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<?x2x4xi64>) -> tensor<?x2x4xi64>
    %21 = tensor.empty(%16) : tensor<?x2x4xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
    %23:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<?x2x4x4xf32>) outs(%22, %20 : tensor<?x2x4xf32>, tensor<?x2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_18: i64):
      %44 = linalg.index 3 : index
      %45 = arith.index_cast %44 : index to i64
      %46 = arith.maximumf %in, %out : f32
      %47 = arith.cmpf ogt, %in, %out : f32
      %48 = arith.select %47, %45, %out_18 : i64
      linalg.yield %46, %48 : f32, i64
    } -> (tensor<?x2x4xf32>, tensor<?x2x4xi64>)
    %expanded_12 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [%16, 2, 4, 1] : tensor<?x2x4xf32> into tensor<?x2x4x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_12 : tensor<?x2x4x4xf32>, tensor<?x2x4x1xf32>) outs(%17 : tensor<?x2x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %44 = arith.subf %in, %in_18 : f32
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
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %44 = arith.divf %in, %in_18 : f32
      linalg.yield %44 : f32
    } -> tensor<?x2x4x4xf32>
    %30 = arith.maxui %16, %dim : index
    %collapsed_13 = tensor.collapse_shape %29 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %collapsed_14 = tensor.collapse_shape %transposed_9 [[0, 1], [2], [3]] : tensor<?x2x4x4xf32> into tensor<?x4x4xf32>
    %31 = arith.muli %30, %c2 : index
    %32 = tensor.empty(%31) : tensor<?x4x4xf32>
    %33 = linalg.fill ins(%cst : f32) outs(%32 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %34 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<?x4x4xf32>, tensor<?x4x4xf32>) outs(%33 : tensor<?x4x4xf32>) -> tensor<?x4x4xf32>
    %35 = arith.divsi %31, %c2 : index
    %expanded_15 = tensor.expand_shape %34 [[0, 1], [2], [3]] output_shape [%35, 2, 4, 4] : tensor<?x4x4xf32> into tensor<?x2x4x4xf32>
    %36 = tensor.empty(%35) : tensor<?x4x2x4xf32>
    %transposed_16 = linalg.transpose ins(%expanded_15 : tensor<?x2x4x4xf32>) outs(%36 : tensor<?x4x2x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_17 = tensor.collapse_shape %transposed_16 [[0], [1], [2, 3]] : tensor<?x4x2x4xf32> into tensor<?x4x8xf32>
    %37 = arith.index_cast %35 : index to i64
    %38 = arith.cmpi sge, %37, %c0_i64 : i64
    cf.assert %38, "negative values not allowed in new dimensions"
    %39 = tensor.empty(%35) : tensor<?x8x8xf32>
    %40 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_5 : tensor<8x8xf32>) outs(%39 : tensor<?x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<?x8x8xf32>
    %41 = tensor.empty(%35) : tensor<?x4x8xf32>
    %42 = linalg.fill ins(%cst : f32) outs(%41 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    %43 = linalg.batch_matmul ins(%collapsed_17, %40 : tensor<?x4x8xf32>, tensor<?x8x8xf32>) outs(%42 : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    return %43 : tensor<?x4x8xf32>
  }
}
