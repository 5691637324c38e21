// What convert-linalg-ext-to-loops refuses, each with a message naming the
// op and the reason; the pass then fails and the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @softmax_on_tensors(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<2x3xf32> {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%o, %s, %s, %s : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  return %r#0 : tensor<2x3xf32>
}
// CHECK: convert-linalg-ext-to-loops: 'linalg_ext.softmax': operates on tensors; bufferize first (one-shot-bufferize)

// -----

// Every op that cannot be lowered is named, in order; the memref diag of
// f32 before them would be lowered, but nothing is.
func.func @several(%v: memref<3xf32>, %d: memref<3x3xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  linalg_ext.diag ins(%v : memref<3xf32>) outs(%d : memref<3x3xf32>)
  %a = linalg_ext.alias(%t : tensor<4xf32>) : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %m = linalg_ext.diag ins(%a : tensor<4xf32>) outs(%e : tensor<4x4xf32>) : tensor<4x4xf32>
  return %a : tensor<4xf32>
}
// CHECK: convert-linalg-ext-to-loops: 'linalg_ext.alias': operates on tensors; bufferize first (one-shot-bufferize); 'linalg_ext.diag': operates on tensors; bufferize first (one-shot-bufferize)

// -----

func.func @diag_of_complex(%v: memref<3xcomplex<f32>>, %d: memref<3x3xcomplex<f32>>) {
  linalg_ext.diag ins(%v : memref<3xcomplex<f32>>) outs(%d : memref<3x3xcomplex<f32>>)
  func.return
}
// CHECK: convert-linalg-ext-to-loops: 'linalg_ext.diag': cannot build the zero of element type complex<f32> off the diagonal

// -----

func.func @scatter_unsigned_indices(%idx: memref<2x1xui32>, %upd: memref<2x3xf32>, %src: memref<4x3xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<2x1xui32>, memref<2x3xf32>) outs(%src : memref<4x3xf32>) {
  ^bb0(%old: f32, %new: f32):
    linalg_ext.yield %new : f32
  }
  func.return
}
// CHECK: convert-linalg-ext-to-loops: 'linalg_ext.scatter': index element type ui32 is not a signless integer or index (arith.index_cast reads signless integers)

// -----

func.func @topk_signed_indices(%v: memref<6xf32>, %ov: memref<2xf32>, %oi: memref<2xsi32>) {
  linalg_ext.topk dimension(0) ins(%v : memref<6xf32>) outs(%ov, %oi : memref<2xf32>, memref<2xsi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK: convert-linalg-ext-to-loops: 'linalg_ext.topk': output index element type si32 is not a signless integer or index (arith.index_cast writes signless integers)
