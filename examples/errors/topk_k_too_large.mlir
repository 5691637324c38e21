// linalg_ext.topk asks for K = 21 of 20 elements per row: the verifier refuses it.
func.func @top(%x: tensor<4x20xf32>, %v: tensor<4x21xf32>, %i: tensor<4x21xi32>) -> tensor<4x21xf32> {
  %r:2 = linalg_ext.topk dimension(1)
      ins(%x : tensor<4x20xf32>)
      outs(%v, %i : tensor<4x21xf32>, tensor<4x21xi32>) {
    ^bb0(%a: f32, %b: f32):
      %greater = arith.cmpf ogt, %a, %b : f32
      linalg_ext.yield %greater : i1
  } -> tensor<4x21xf32>, tensor<4x21xi32>
  return %r#0 : tensor<4x21xf32>
}
