// The tutorial's program (docs/tutorial.md): attention-style scores of
// queries against keys, plus a bias, turned into probabilities per row.
//
//   scores = q · kᵀ          linalg_ext.batch_matmul, layout "nt"
//   biased = scores + bias   an elementwise linalg.generic
//   probs  = softmax(biased) linalg_ext.softmax along the last dimension

#id = affine_map<(b, i, j) -> (b, i, j)>

func.func @scores(%q: tensor<2x4x8xf32>, %k: tensor<2x6x8xf32>,
                  %bias: tensor<2x4x6xf32>) -> tensor<2x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %minus_inf = arith.constant 0xFF800000 : f32

  %empty = tensor.empty() : tensor<2x4x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %scores = linalg_ext.batch_matmul ins(%q, %k : tensor<2x4x8xf32>, tensor<2x6x8xf32>)
                                    outs(%acc : tensor<2x4x6xf32>) layout = "nt"

  %biased = linalg.generic {indexing_maps = [#id, #id, #id],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores, %bias : tensor<2x4x6xf32>, tensor<2x4x6xf32>)
      outs(%empty : tensor<2x4x6xf32>) {
  ^bb0(%s: f32, %b: f32, %out: f32):
    %sum = arith.addf %s, %b : f32
    linalg.yield %sum : f32
  } -> tensor<2x4x6xf32>

  // Softmax with running statistics: start from max = -inf and sum = 0.
  %stat = tensor.empty() : tensor<2x4xf32>
  %max0 = linalg.fill ins(%minus_inf : f32) outs(%stat : tensor<2x4xf32>) -> tensor<2x4xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%stat : tensor<2x4xf32>) -> tensor<2x4xf32>
  %probs:4 = linalg_ext.softmax dimension(2)
      ins(%biased : tensor<2x4x6xf32>)
      outs(%empty, %max0, %sum0, %stat : tensor<2x4x6xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
      : tensor<2x4x6xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>

  return %probs#0 : tensor<2x4x6xf32>
}
