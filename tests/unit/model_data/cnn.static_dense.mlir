#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @cnn(%arg0: tensor<2x3x8x8xf32>) -> tensor<2x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<"0x465BB7BE4651103D0E4F70BE8F3A393ED96141BE2F5E86BE5EBA92BDAE687A3DD03FC83C8B17ABBE72BC88BE5F3588BE02B3853EFE43413C2FC789BE0B72EDBD0D06863EAC15B9BE2E91D7BB0F101F3E85EE91BE34353BBE154EB9BECEA6823EE48E7FBD67F1A7BDF6F9D23E4319F83DFC2D89BED6A2163D2C38B23EF92A98BECBB8C5BC6BC2CBBD043C843EE14EAFBEA5ADC13D08CE1C3F280EDC3EA13BDD3D0768D5BEDB40793E1C90433E58C953BE5B39D93D58FE9B3ECE7CE43D57B2A9BE061455BE4A2E6ABDE41C1EBF6CE6D4BD9BDEA13E8A4F873CC763B8BE31BBE83EE91383BEB7CF623CB61A91BEC15CB7BE2EA7903E6ADDF0BE2BD4353E1B14473EB3370FBF280CA4BEA1EE80BB5E361E3D55766CBEDD08A53DEB9445BE009750BD356588BDD8B6AC3DBA8FDDBE19E04A3E0EE5293E483C6FBD5E19EF3A1B5F893EE3C8883D80CBE0BDB7B958BE29B8293F8D217CBE6BBE7ABE85FF76BDED6B46BE9A68EF3ED2BAAB3CA67306BF7FDC12BFAB29BEBCF4439A3EC113D7BE1F1FC83CC27D833C6894EE3DCA4C083FA374EE3EDA909B3D2BA1ACBED0E7AEBEB3FBD0B924D8023EBFC23BBFADAF4B3EEB76BB3C"> : tensor<4x3x3x3xf32>
    %cst_2 = arith.constant dense<[0.0321642719, -0.032883998, -0.036889907, -0.0488596223]> : tensor<4xf32>
    %cst_3 = arith.constant dense<"0xC24B003E9A14003E7BE4F8BD903500BFC9B33D3E28A4DCBE81F0043E25DD1CBD38582F3EF711AD3DD3C47DBE5E9B5E3E145FC3BDD4F8B3BCAA8A85BDB37A0D3E2C9E593E364D16BDE50F64BEEBD4303E74BEF2BD4734963D1E64623E2C87E13DA215263E60D1353E3BDD5E3DFA3E883D364ADC3D920307BEED10163C3F94EA3D44BD47BE1569E13E351A85BEF6D144BE6E46B63E627E01BE11A323BED09B2FBE53BFE7BD8B8B16BEE620BF3D8351303EA4583EBE67C63A3EE7AD043EFBF587BE6BB6DDBD2FA592BC0E0702BF38CB14BDEC642ABE0F603DBEF94625BE1425423C01C635BD1AF775BE2E6DBBBE084EA8BD73AEAE3DC5EFAC3CD05BAC3E8F8791BB33444E3E6BE092BE68AB06BE1306FCBC3F96013D95EB6ABEDBCAB4BD3BE040BD284A373EDD4565BEE1BDD43E3CD2B83DFF6A65BD7FEDC33D085A00BD775A54BC6A7F92BDB89D5C3D179E243E95AEB83C0C1C4BBE1651463CED3FE43EAB62683EEEA00BBF0AA48A3CBF09F9BD528A0A3EDBB1023B58B8C2BE4CE14D3EB2BE063DABD3E4BDBA71373E317C293E0DBEE13ECEA26BBEA346CD3DC91E8FBDC8EFACBE91259C3E5E0BDDBE3CA7DF3E248AD73D958F103E8B060ABEA5B727BEB74100BFB0B24CBEDFFFACBEBA19C03DE79DB33DC20591BE7286693E17CF5EBE58C9AFBD17197B3D2BD8173ECA77013D9EBB10BE7C101CBE8D7379BC995CFB3D87DC7DBEC14F83BE61FF92BD00E5233E2A4602BEDC45963C1BD9A33DEF25773EF074203EDB2D653E19849A3D5FDAAFBE1E0A563E97BBCB3DEE648F3A4031B2BDCF45B0BCD20D92BE27CB8BBB8E6E0C3EA619A6BBC2C7913DF7CDD13D54D66B3DDF8B793E6ABC903EA2E6F3BD2F003C3E4F4CE3BD18229CBED714463D634F383D7B97253D85AD5E3EC7022E3EA683883D65D9AA3D7986A13E6E0AB1BE0A78D73DC326E43E7EE7FDBCC3B2DE3D1716B7BD19E1553C72FAA03EF7102CBD8A935ABE9110693E688B0A3F2895BC3DE2AE7F3ED186253E9C8FD03C47829ABD6E1294BE566306BE86CE253D8F2F06BE5659003E7029913EBCEFD9BD2A7B1DBBD91FA8BEA0579B3DEF434BBE0FB3C43EC22D31BE60EAA5BE2E91E03D600296BECAC03CBEAF2B53BD65D4023D26CF97BEC62CB23EAFFC0CBFAB3277BE8A6D193EB5A8083F77E873BE8E3F763E81ED09BE363D72BD65BD85BECEF216BE6D5E9E3E8679D13E527392BE"> : tensor<6x4x3x3xf32>
    %cst_4 = arith.constant dense<[0.094648607, -0.0983638912, -0.0724975839, 0.0184683297, 0.0653787181, -0.0161797348]> : tensor<6xf32>
    %cst_5 = arith.constant dense<[[-0.150844321, 0.130229726, -0.1988886, 0.475608021], [-0.170489371, -5.538440e-01, -0.0167462733, -0.156799689], [0.206555858, 6.504310e-02, -0.469491273, -0.506740332], [0.00447701383, 0.0978359207, 0.66541028, -0.278261751], [0.469812036, 0.0167298075, 0.100656897, 0.126830369], [-0.346359611, 0.65850681, -3.026940e-01, -0.383455604]]> : tensor<6x4xf32>
    %cst_6 = arith.constant dense<[-0.0440740585, 0.0059843827, 0.0508485734, -0.0679981932]> : tensor<4xf32>
    %cst_7 = arith.constant 1.600000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
    %0 = tensor.empty() : tensor<2x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_2 : tensor<4xf32>) outs(%0 : tensor<2x4x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_1 : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%broadcasted : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<2x4x8x8xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.cmpf ugt, %in, %cst : f32
      %20 = arith.select %19, %in, %cst : f32
      linalg.yield %20 : f32
    } -> tensor<2x4x8x8xf32>
    %3 = tensor.empty() : tensor<2x4x4x4xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    %5 = tensor.empty() : tensor<2x2xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%2, %5 : tensor<2x4x8x8xf32>, tensor<2x2xf32>) outs(%4 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
    %padded_8 = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<2x4x4x4xf32> to tensor<2x4x6x6xf32>
    %7 = tensor.empty() : tensor<2x6x4x4xf32>
    %broadcasted_9 = linalg.broadcast ins(%cst_4 : tensor<6xf32>) outs(%7 : tensor<2x6x4x4xf32>) dimensions = [0, 2, 3] 
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_8, %cst_3 : tensor<2x4x6x6xf32>, tensor<6x4x3x3xf32>) outs(%broadcasted_9 : tensor<2x6x4x4xf32>) -> tensor<2x6x4x4xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x6x4x4xf32>) outs(%7 : tensor<2x6x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.cmpf ugt, %in, %cst : f32
      %20 = arith.select %19, %in, %cst : f32
      linalg.yield %20 : f32
    } -> tensor<2x6x4x4xf32>
    %10 = tensor.empty() : tensor<2x6x1x1xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x6x1x1xf32>) -> tensor<2x6x1x1xf32>
    %12 = tensor.empty() : tensor<4x4xf32>
    %13 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%9, %12 : tensor<2x6x4x4xf32>, tensor<4x4xf32>) outs(%11 : tensor<2x6x1x1xf32>) -> tensor<2x6x1x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<2x6x1x1xf32>) outs(%10 : tensor<2x6x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_7 : f32
      linalg.yield %19 : f32
    } -> tensor<2x6x1x1xf32>
    %collapsed = tensor.collapse_shape %14 [[0], [1, 2, 3]] : tensor<2x6x1x1xf32> into tensor<2x6xf32>
    %15 = tensor.empty() : tensor<2x4xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = linalg.matmul ins(%collapsed, %cst_5 : tensor<2x6xf32>, tensor<6x4xf32>) outs(%16 : tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%17, %cst_6 : tensor<2x4xf32>, tensor<4xf32>) outs(%15 : tensor<2x4xf32>) {
    ^bb0(%in: f32, %in_10: f32, %out: f32):
      %19 = arith.addf %in, %in_10 : f32
      linalg.yield %19 : f32
    } -> tensor<2x4xf32>
    return %18 : tensor<2x4xf32>
  }
}
