#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> ()>
module {
  func.func @gemm_gelu(%arg0: tensor<4x8xf32>) -> tensor<4x16xf32> {
    %c3_i64 = arith.constant 3 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<"0xFC7239BFCE76C3BE0705273E3FA8713CAA6A1B3E4C059EBD8BC9B33C920859BCE8E6A33E9428823E98F8153EEB3D2A3E6103DFBE973423BF3BB40EBECA15133F69E5CA3E1F25BD3DE86EA6BEB17427BFF220073FE14BA53CF1FA4D3E786CAF3D8DE6DEBD8959C43EAF6D89BE9461933E2C9FEB3EC5768CBDC86602BEC6EB18BE812D8ABD118DE6BE2C1632BE7E8EFFBC7479363EB715253EBC21F4BDB170ED3CBDF2FC3D7858983EF4DDF4BCA2CAC4BE0E9F0F3FACAB283F797DEABE0B5D97BE3DAB8D3CBBAB2ABF361CCFBE282136BFCB6A453E9DB4C93C5F704F3F86F9C3BE6E4250BE5A36873E6EB944BCF79C83BCDACD433E2618833EFEE6543CB19D67BECF9238BDFFFB14BF059B97BEBE2E293F075500BFF966C83E80240B3EB4DA0A3DF84B243ECC0FB7BEEE12923DE85A57BE2254E3BEBE54553BB78051BF89F4713E34F33D3E69E650BDB3A92B3F5086863EAAA0F53DC85F973E0CD5D3BC277B8EBD496C90BEB6A1F6BE37191D3FFA3AF13ED6D6B33ED2FB323ED2359B3E5F43C93E6A54933D4E7B9ABE9AFF263FF83280BDB87A393E6C6B7E3EAE6C38BE6500A73D5ED886BDF3FEBE3EC2CE6EBE5D129A3E467F67BC890E923EBD76E43EDB02E6BEA3883C3E9EC2493F82D14DBC7A41D2BEF6C9A73EE7B806BEC9090BBF1A60733F8C5B053FA907D0BE09CE4ABDD40DA93E16CEF9BE577C0EBBDC38D83DB820693E"> : tensor<16x8xf32>
    %cst_1 = arith.constant dense<[0.0915866717, 0.0997548922, 0.0492536165, -0.0258445945, 0.0234710202, -0.0428889468, 0.0723103881, -0.0456839874, -0.0130748423, 0.0600685515, -0.0383007713, -0.0263285469, -0.0903497487, -0.0408847891, 9.084110e-02, -0.0915440693]> : tensor<16xf32>
    %cst_2 = arith.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = arith.constant dense<0.797884583> : tensor<f32>
    %cst_4 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<5.000000e-01> : tensor<f32>
    %0 = tensor.empty() : tensor<8x16xf32>
    %transposed = linalg.transpose ins(%cst_0 : tensor<16x8xf32>) outs(%0 : tensor<8x16xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<4x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<4x8xf32>, tensor<8x16xf32>) outs(%2 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_1 : tensor<4x16xf32>, tensor<16xf32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.addf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x16xf32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_2 : tensor<4x16xf32>, tensor<f32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %6 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.addf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_3 : tensor<4x16xf32>, tensor<f32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<4x16xf32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.tanh %in : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %cst_4 : tensor<4x16xf32>, tensor<f32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.addf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_5 : tensor<4x16xf32>, tensor<f32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %10 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%1 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<4x16xf32>
    return %12 : tensor<4x16xf32>
  }
}
