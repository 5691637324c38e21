func.func @matmul(%a: memref<64x48xf32>, %b: memref<48x80xf32>, %c: memref<64x80xf32>) {
  linalg.matmul ins(%a, %b : memref<64x48xf32>, memref<48x80xf32>) outs(%c : memref<64x80xf32>)
  return
}
