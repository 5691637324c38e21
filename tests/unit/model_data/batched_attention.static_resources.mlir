#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0, d1, d2, d3) -> ()>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @batched_attention(%arg0: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense_resource<wq_3> : tensor<8x8xf32>
    %cst_2 = arith.constant dense_resource<wk_7> : tensor<8x8xf32>
    %cst_3 = arith.constant dense_resource<wv_11> : tensor<8x8xf32>
    %cst_4 = arith.constant dense<5.000000e-01> : tensor<f32>
    %cst_5 = arith.constant dense_resource<wo_22> : tensor<8x8xf32>
    %0 = tensor.empty() : tensor<2x8x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<8x8xf32>) outs(%0 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x8xf32>
    %2 = tensor.empty() : tensor<2x4x8xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<2x4x8xf32>, tensor<2x8x8xf32>) outs(%3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %expanded = tensor.expand_shape %4 [[0], [1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
    %5 = tensor.empty() : tensor<2x2x4x4xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<2x4x2x4xf32>) outs(%5 : tensor<2x2x4x4xf32>) permutation = [0, 2, 1, 3] 
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<8x8xf32>) outs(%0 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x8xf32>
    %7 = linalg.batch_matmul ins(%arg0, %6 : tensor<2x4x8xf32>, tensor<2x8x8xf32>) outs(%3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %expanded_6 = tensor.expand_shape %7 [[0], [1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
    %transposed_7 = linalg.transpose ins(%expanded_6 : tensor<2x4x2x4xf32>) outs(%5 : tensor<2x2x4x4xf32>) permutation = [0, 2, 3, 1] 
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<8x8xf32>) outs(%0 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x8xf32>
    %9 = linalg.batch_matmul ins(%arg0, %8 : tensor<2x4x8xf32>, tensor<2x8x8xf32>) outs(%3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    %expanded_8 = tensor.expand_shape %9 [[0], [1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<2x4x8xf32> into tensor<2x4x2x4xf32>
    %transposed_9 = linalg.transpose ins(%expanded_8 : tensor<2x4x2x4xf32>) outs(%5 : tensor<2x2x4x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
    %collapsed_10 = tensor.collapse_shape %transposed_7 [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
    %10 = tensor.empty() : tensor<4x4x4xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %12 = linalg.batch_matmul ins(%collapsed, %collapsed_10 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%11 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %expanded_11 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [2, 2, 4, 4] : tensor<4x4x4xf32> into tensor<2x2x4x4xf32>
    %13 = linalg.generic {indexing_maps = [#map2, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_11, %cst_4 : tensor<2x2x4x4xf32>, tensor<f32>) outs(%5 : tensor<2x2x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %29 = arith.mulf %in, %in_18 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x4x4xf32>
    %14 = tensor.empty() : tensor<2x2x4xi64>
    %15 = linalg.fill ins(%c0_i64 : i64) outs(%14 : tensor<2x2x4xi64>) -> tensor<2x2x4xi64>
    %16 = tensor.empty() : tensor<2x2x4xf32>
    %17 = linalg.fill ins(%cst_0 : f32) outs(%16 : tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
    %18:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%13 : tensor<2x2x4x4xf32>) outs(%17, %15 : tensor<2x2x4xf32>, tensor<2x2x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_18: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_18 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x2x4xf32>, tensor<2x2x4xi64>)
    %expanded_12 = tensor.expand_shape %18#0 [[0], [1], [2, 3]] output_shape [2, 2, 4, 1] : tensor<2x2x4xf32> into tensor<2x2x4x1xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_12 : tensor<2x2x4x4xf32>, tensor<2x2x4x1xf32>) outs(%5 : tensor<2x2x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %29 = arith.subf %in, %in_18 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x4x4xf32>
    %20 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19 : tensor<2x2x4x4xf32>) outs(%5 : tensor<2x2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x4x4xf32>
    %21 = tensor.empty() : tensor<2x2x4x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<2x2x4x1xf32>) -> tensor<2x2x4x1xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%20 : tensor<2x2x4x4xf32>) outs(%22 : tensor<2x2x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x4x1xf32>
    %24 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<2x2x4x4xf32>, tensor<2x2x4x1xf32>) outs(%5 : tensor<2x2x4x4xf32>) {
    ^bb0(%in: f32, %in_18: f32, %out: f32):
      %29 = arith.divf %in, %in_18 : f32
      linalg.yield %29 : f32
    } -> tensor<2x2x4x4xf32>
    %collapsed_13 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
    %collapsed_14 = tensor.collapse_shape %transposed_9 [[0, 1], [2], [3]] : tensor<2x2x4x4xf32> into tensor<4x4x4xf32>
    %25 = linalg.batch_matmul ins(%collapsed_13, %collapsed_14 : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%11 : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
    %expanded_15 = tensor.expand_shape %25 [[0, 1], [2], [3]] output_shape [2, 2, 4, 4] : tensor<4x4x4xf32> into tensor<2x2x4x4xf32>
    %26 = tensor.empty() : tensor<2x4x2x4xf32>
    %transposed_16 = linalg.transpose ins(%expanded_15 : tensor<2x2x4x4xf32>) outs(%26 : tensor<2x4x2x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_17 = tensor.collapse_shape %transposed_16 [[0], [1], [2, 3]] : tensor<2x4x2x4xf32> into tensor<2x4x8xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_5 : tensor<8x8xf32>) outs(%0 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x8x8xf32>
    %28 = linalg.batch_matmul ins(%collapsed_17, %27 : tensor<2x4x8xf32>, tensor<2x8x8xf32>) outs(%3 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
    return %28 : tensor<2x4x8xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      wq_3: "0x08000000710C9D3E0FBD69BDDB44013F5311C33ED1288C3E597FB33DE55157BE7EBAFD3EBD882D3BAEA8ECBDF3B7F73EE29EB0BE6AAD10BF464ADABEAF6310BDF0F203BF454709BFFA9B82BD3F51F1BE303F50BE01291E3FAF8C30BDE2CE15BF966D19BF8391283F21D27CBC42F86EBEF730DBBEE8E80EBF21922C3B91A3E53EE93CAC3CD2033EBF27E2C2BE594F8EBE4976F5BEBCB291BED0CB2A3CCD27073D5B96DB3DCFB538BD98D0423D28FE173FB58C5EBE80BD7CBBB80F37BF251676BE14120ABE4F8260BDCCA049BF0F27913C1C5509BF1D20E33EFF1C95BEB659213F1139ED3DC57A2C3FA4CBED3EF886823E4FDA13BF08E0ACBE8950233E9FF4FFBDDAC86CBE",
      wk_7: "0x0800000097B6253E573710BF191E4ABEC42FA83D96B6BCBED7A383BD003923BE020CB33E4A87043F8B930C3F873FF3BE257EFEBD4801073F5D1E34BE97FAE53DF7B722BD3F29633EE653E8BDFB97A13E24DC36BEEB9602BDB92D5DBEE0268F3FF31C573D23F0573E526751BE79BDD13EE80B4A3D344BCC3EAD8CC63EAA9B5D3DD082D43DE043DC3ECD2EE0BECF2348BFCC33B6BEED824D3E77F6A0BE8E7B72BD4B1B073E3FCE543E192FE63DF9B0C93E9678433F13CED73D4452E33C767AAE3E6196473E2EE1ECBEE9DDE3BDD64B66BEF44546BE3636B2BEBCC1873C53A77CBD65887CBE395ECA3D19ED8F3EC972F73DB6FF3BBD2A6D573D5EC4C5BECE78203E6C74AC3E",
      wv_11: "0x08000000C1A5FD3DF1E002BF839E37BD652437BE421663BE61CF863E596DBFBDC15728BC4340063C0CC0473EBDBC21BDEECA103FB7C9943C08A9533C26A3F8BCECE50ABFEA03B23E26FF103F86BFC2BD3046183FDB7D35BE524021BF067169BB653094BD3CBCD3BEC82E383E5DA271BD1266CD3E9D64003F45776ABE3F71A83D87D07E3EB94AE1BEE03BBE3ECE941A3F6217B53E6690113FDABE723C7C27E33D99C315BEDD3C713EE47279BE5B85C13E686A00BE40FB8E3E354313BFFC4D1E3F66648B3EE9A3A53D11F83B3E7F6AA93ECE842ABE733EEFBE286E973ECFC4A33E79157FBE5EE2ED3BF066B93EC98AB3BCD1B4E1BE3FEC523F1883143E9F507E3F5C6553BE",
      wo_22: "0x080000008091863E72E928BD21DC82BE5CF1553EA43D90BE513C5E3ED72F3A3E6AEFE9BE3422E3BE1563AA3E7BFDF83DCE3243BD2B55F43E92651B3FBFF5723DBFD934BEC7D7513E0D0018BE7211F83CFBB72BBE53EDA2BE32D4B2BEB2B417BE022E02BCC778CF3DAB2351BC7C07BCBCD445BF3DC564F7BE6A2F3BBEDC7303BF1927463EDACA2F3FEE29D43E4F97653E7F10E13E0DC74DBEB572CF3CBEA6A53EDFA1E33DB5601CBC2C21803D17E311BFF05AE83D4562B53EF46CDC3C3E78DE3E523D04BF7F518FBE5C71863E70C0B4BB3844DBBE2A6E1ABF94E1E8BEBFAD913ECA45603E7FCC8E3EF9CF483E38ADFBBC5CD12F3EF53A0A3F7B4F55BEC2AB0CBF8951FEBE"
    }
  }
#-}
