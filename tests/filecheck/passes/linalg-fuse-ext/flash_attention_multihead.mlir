// Multi-head flash attention (ByteIR's fuse-attention test kind, written
// fresh): batch 2, heads 3, 8 queries, 12 keys, head dim 4, all products
// linalg_ext.batch_matmul "nn". Tiled along the batch (1), k (8, partial)
// and rows (4), in ByteIR's interchange (batch, head, k, n, m): the running
// max and sum (2x3x8) are carried through the three loops and read at the
// (batch, rows) tile; the accumulated rows are rescaled by a diag of the
// scale tile and a batch_matmul "nn".
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=1,0,4,0,8 tile-interchange=0,1,4,3,2}' | filecheck %s

// CHECK-LABEL: func.func @multihead_attention
// CHECK-DAG:     %[[M0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x8xf32>)
// CHECK-DAG:     %[[A0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x8xf32>)
// CHECK-DAG:     %[[O0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x8x4xf32>)
// CHECK:         %[[R:.*]], %{{.*}}, %{{.*}} = scf.for %[[B:.*]] = {{.*}} iter_args(%{{.*}} = %[[O0]], %{{.*}} = %[[M0]], %{{.*}} = %[[A0]])
// CHECK:           scf.for %[[K:.*]] = {{.*}} iter_args
// CHECK:             scf.for %[[I:.*]] = {{.*}} iter_args(%[[O:.*]] = %{{.*}}, %[[M:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}})
// CHECK:               %[[S:.*]] = linalg_ext.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x3x4x4xf32>, tensor<1x3x4x?xf32>) outs(%{{.*}} : tensor<1x3x4x?xf32>) layout = "nn"
// CHECK-DAG:           %[[MS:.*]] = tensor.extract_slice %[[M]][%[[B]], 0, %[[I]]] [1, 3, 4] [1, 1, 1]
// CHECK-DAG:           %[[AS:.*]] = tensor.extract_slice %[[A]][%[[B]], 0, %[[I]]] [1, 3, 4] [1, 1, 1]
// CHECK:               %[[P:.*]], %{{.*}}, %{{.*}}, %[[PS:.*]] = linalg_ext.softmax dimension(3) ins(%[[S]] : tensor<1x3x4x?xf32>) outs(%{{.*}}, %[[MS]], %[[AS]], %{{.*}} :
// CHECK-DAG:           %[[OLD:.*]] = tensor.extract_slice %[[O]][%[[B]], 0, %[[I]], 0] [1, 3, 4, 4] [1, 1, 1, 1]
// CHECK-DAG:           %[[D:.*]] = linalg_ext.diag ins(%[[PS]] : tensor<1x3x4xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// CHECK:               %[[RS:.*]] = linalg_ext.batch_matmul ins(%[[D]], %[[OLD]] : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) outs(%{{.*}} : tensor<1x3x4x4xf32>) layout = "nn"
// CHECK:               linalg_ext.batch_matmul ins(%[[P]], %{{.*}} : tensor<1x3x4x?xf32>, tensor<1x3x?x4xf32>) outs(%[[RS]] : tensor<1x3x4x4xf32>) layout = "nn" {__root__}
// CHECK:         return %[[R]] : tensor<2x3x8x4xf32>
func.func @multihead_attention(%q: tensor<2x3x8x4xf32>, %kt: tensor<2x3x4x12xf32>, %v: tensor<2x3x12x4xf32>) -> tensor<2x3x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<2x3x8x12xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x8x12xf32>) -> tensor<2x3x8x12xf32>
  %s = linalg_ext.batch_matmul ins(%q, %kt : tensor<2x3x8x4xf32>, tensor<2x3x4x12xf32>) outs(%s0 : tensor<2x3x8x12xf32>) layout = "nn"
  %er = tensor.empty() : tensor<2x3x8xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%er : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %ep = tensor.empty() : tensor<2x3x8x12xf32>
  %scale = tensor.empty() : tensor<2x3x8xf32>
  %p:4 = linalg_ext.softmax dimension(3) ins(%s : tensor<2x3x8x12xf32>)
      outs(%ep, %m0, %a0, %scale : tensor<2x3x8x12xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>)
      : tensor<2x3x8x12xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<2x3x8xf32>
  %eo = tensor.empty() : tensor<2x3x8x4xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x3x8x4xf32>) -> tensor<2x3x8x4xf32>
  %o = linalg_ext.batch_matmul ins(%p#0, %v : tensor<2x3x8x12xf32>, tensor<2x3x12x4xf32>) outs(%o0 : tensor<2x3x8x4xf32>) layout = "nn" {__root__}
  return %o : tensor<2x3x8x4xf32>
}
