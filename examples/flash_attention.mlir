// Attention softmax(Q·Kᵀ)·V, 16 queries, 24 keys, head dim 8: the input of
// docs/fuse-ext-attention.md (linalg-fuse-ext turns it into the flash form).
func.func @attention(%q: tensor<16x8xf32>, %kt: tensor<8x24xf32>, %v: tensor<24x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<16x24xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<16x24xf32>) -> tensor<16x24xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x24xf32>)
      outs(%s0 : tensor<16x24xf32>) -> tensor<16x24xf32>
  %er = tensor.empty() : tensor<16xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%er : tensor<16xf32>) -> tensor<16xf32>
  %ep = tensor.empty() : tensor<16x24xf32>
  %scale = tensor.empty() : tensor<16xf32>
  %p:4 = linalg_ext.softmax dimension(1) ins(%s : tensor<16x24xf32>)
      outs(%ep, %m0, %a0, %scale : tensor<16x24xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      : tensor<16x24xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  %eo = tensor.empty() : tensor<16x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul {__root__} ins(%p#0, %v : tensor<16x24xf32>, tensor<24x8xf32>)
      outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
