// A small attention-like block written with linalg_ext ops: scores by a
// batched matmul with a transposed key, a row softmax, the weighted sum of the
// values, then a layer norm of the result and the top two scores per row.

func.func @attention_block(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>,
                           %gamma: tensor<16xf32>, %beta: tensor<16xf32>)
    -> (tensor<2x8x16xf32>, tensor<2x8x2xf32>, tensor<2x8x2xi32>) {
  %zero = arith.constant 0.0 : f32
  %minus_inf = arith.constant 0xFF800000 : f32

  // scores[b, i, j] = sum_d q[b, i, d] * k[b, j, d]
  %scores_init = tensor.empty() : tensor<2x8x8xf32>
  %scores_zero = linalg.fill ins(%zero : f32) outs(%scores_init : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %scores = linalg_ext.batch_matmul ins(%q, %k : tensor<2x8x16xf32>, tensor<2x8x16xf32>)
                                    outs(%scores_zero : tensor<2x8x8xf32>) layout = "nt"

  // Softmax over j, starting from max = -inf and sum = 0.
  %probs_init = tensor.empty() : tensor<2x8x8xf32>
  %stat = tensor.empty() : tensor<2x8xf32>
  %max0 = linalg.fill ins(%minus_inf : f32) outs(%stat : tensor<2x8xf32>) -> tensor<2x8xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%stat : tensor<2x8xf32>) -> tensor<2x8xf32>
  %sm:4 = linalg_ext.softmax dimension(2)
      ins(%scores : tensor<2x8x8xf32>)
      outs(%probs_init, %max0, %acc0, %stat : tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
      : tensor<2x8x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>

  // context[b, i, d] = sum_j probs[b, i, j] * v[b, j, d]
  %ctx_init = tensor.empty() : tensor<2x8x16xf32>
  %ctx_zero = linalg.fill ins(%zero : f32) outs(%ctx_init : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %ctx = linalg_ext.batch_matmul ins(%sm#0, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>)
                                 outs(%ctx_zero : tensor<2x8x16xf32>) layout = "nn"

  %normed_init = tensor.empty() : tensor<2x8x16xf32>
  %normed = linalg_ext.layer_norm axis([2]) epsilon(1.0E-5)
      ins(%ctx, %gamma, %beta : tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>)
      outs(%normed_init : tensor<2x8x16xf32>) : tensor<2x8x16xf32>

  // The two largest scores of each row and where they are.
  %top_values = tensor.empty() : tensor<2x8x2xf32>
  %top_indices = tensor.empty() : tensor<2x8x2xi32>
  %top:2 = linalg_ext.topk dimension(2)
      ins(%scores : tensor<2x8x8xf32>)
      outs(%top_values, %top_indices : tensor<2x8x2xf32>, tensor<2x8x2xi32>) {
    ^bb0(%a: f32, %b: f32):
      %greater = arith.cmpf ogt, %a, %b : f32
      linalg_ext.yield %greater : i1
  } -> tensor<2x8x2xf32>, tensor<2x8x2xi32>

  return %normed, %top#0, %top#1 : tensor<2x8x16xf32>, tensor<2x8x2xf32>, tensor<2x8x2xi32>
}
