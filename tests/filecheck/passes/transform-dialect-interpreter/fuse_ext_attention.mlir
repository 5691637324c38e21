// transform.structured.fuse_ext on attention, in ByteIR's script form (the
// kinds of ByteIR's fuse-attention test, written fresh, small): the P·V
// matmul tiled along k reaches the flash form. Dot attention (k by 8
// outside, rows by 4 inside, then `cleanup`): the fills of the running max,
// sum and result stay before the loops, which carry them; per tile the
// scores are computed (their fill and Q·Kᵀ fused), the softmax of the tile
// continues the running statistics, and the rows accumulated so far are
// rescaled by diag(scale) before P·V is added. Multi-head attention
// (linalg_ext.batch_matmul "nn", ByteIR's sizes [2, 0, 8, 0, 4] and
// interchange [0, 1, 4, 3, 2]): three loops, the batch one marked parallel by
// tile_loop_hint, the rescale a batch_matmul "nn". Both compute the
// untiled attention (tests/unit/test_pass_meaning.py runs them).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @dot_attention(
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16xf32>)
// CHECK-DAG:     linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK:         %[[R:.*]], %{{.*}}, %{{.*}} = scf.for
// CHECK:           scf.for
// CHECK:             linalg.fill
// CHECK:             linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>)
// CHECK:             %[[P0:.*]], %[[P1:.*]], %[[P2:.*]], %[[P3:.*]] = linalg_ext.softmax dimension(1)
// CHECK:             %[[D:.*]] = linalg_ext.diag ins(%[[P3]] : tensor<4xf32>)
// CHECK:             linalg.fill
// CHECK:             %[[RS:.*]] = linalg.matmul ins(%[[D]], %{{.*}} : tensor<4x4xf32>, tensor<4x8xf32>)
// CHECK:             %[[T:.*]] = linalg.matmul {__root__} ins(%[[P0]], %{{.*}} : tensor<4x8xf32>, tensor<8x8xf32>) outs(%[[RS]] : tensor<4x8xf32>)
// CHECK:             %[[I0:.*]] = tensor.insert_slice %[[T]]
// CHECK:             %[[I1:.*]] = tensor.insert_slice %[[P1]]
// CHECK:             %[[I2:.*]] = tensor.insert_slice %[[P2]]
// CHECK:             scf.yield %[[I0]], %[[I1]], %[[I2]]
// CHECK:         return %[[R]]
func.func @dot_attention(%q: tensor<16x8xf32>, %kt: tensor<8x24xf32>, %v: tensor<24x8xf32>) -> tensor<16x8xf32> {
  %0 = tensor.empty() : tensor<16x24xf32>
  %1 = tensor.empty() : tensor<16x8xf32>
  %2 = tensor.empty() : tensor<16x24xf32>
  %3 = tensor.empty() : tensor<16xf32>
  %4 = tensor.empty() : tensor<16xf32>
  %5 = tensor.empty() : tensor<16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max0 = linalg.fill ins(%ninf : f32) outs(%3 : tensor<16xf32>) -> tensor<16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%0 : tensor<16x24xf32>) -> tensor<16x24xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%1 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%4 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x24xf32>) outs(%s0 : tensor<16x24xf32>) -> tensor<16x24xf32>
  %p:4 = linalg_ext.softmax dimension(1) ins(%s : tensor<16x24xf32>) outs(%2, %max0, %sum0, %5 : tensor<16x24xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) : tensor<16x24xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  %o = linalg.matmul {__root__} ins(%p#0, %v : tensor<16x24xf32>, tensor<24x8xf32>) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @multihead_attention(
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               linalg.fill
// CHECK:               linalg_ext.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x8x4xf32>, tensor<2x3x4x4xf32>)
// CHECK:               %[[P0:.*]], %[[P1:.*]], %[[P2:.*]], %[[P3:.*]] = linalg_ext.softmax dimension(3)
// CHECK:               %[[D:.*]] = linalg_ext.diag ins(%[[P3]] : tensor<2x3x8xf32>) outs(%{{.*}} : tensor<2x3x8x8xf32>)
// CHECK:               linalg.fill
// CHECK:               %[[RS:.*]] = linalg_ext.batch_matmul ins(%[[D]], %{{.*}} : tensor<2x3x8x8xf32>, tensor<2x3x8x4xf32>) outs(%{{.*}} : tensor<2x3x8x4xf32>) layout = "nn"
// CHECK:               linalg_ext.batch_matmul ins(%[[P0]], %{{.*}} : tensor<2x3x8x4xf32>, tensor<2x3x4x4xf32>) outs(%[[RS]] : tensor<2x3x8x4xf32>) layout = "nn" {__root__}
// CHECK:               scf.yield
// CHECK:             scf.yield
// CHECK:           scf.yield
// CHECK:         } {__byteir_parallel__}
func.func @multihead_attention(%q: tensor<4x3x16x4xf32>, %kt: tensor<4x3x4x12xf32>, %v: tensor<4x3x12x4xf32>) -> tensor<4x3x16x4xf32> {
  %0 = tensor.empty() : tensor<4x3x16x12xf32>
  %1 = tensor.empty() : tensor<4x3x16x4xf32>
  %2 = tensor.empty() : tensor<4x3x16x12xf32>
  %3 = tensor.empty() : tensor<4x3x16xf32>
  %4 = tensor.empty() : tensor<4x3x16xf32>
  %5 = tensor.empty() : tensor<4x3x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max0 = linalg.fill ins(%ninf : f32) outs(%3 : tensor<4x3x16xf32>) -> tensor<4x3x16xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%0 : tensor<4x3x16x12xf32>) -> tensor<4x3x16x12xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%1 : tensor<4x3x16x4xf32>) -> tensor<4x3x16x4xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%4 : tensor<4x3x16xf32>) -> tensor<4x3x16xf32>
  %s = linalg_ext.batch_matmul ins(%q, %kt : tensor<4x3x16x4xf32>, tensor<4x3x4x12xf32>) outs(%s0 : tensor<4x3x16x12xf32>) layout = "nn"
  %p:4 = linalg_ext.softmax dimension(3) ins(%s : tensor<4x3x16x12xf32>) outs(%2, %max0, %sum0, %5 : tensor<4x3x16x12xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>) : tensor<4x3x16x12xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>, tensor<4x3x16xf32>
  %o = linalg_ext.batch_matmul ins(%p#0, %v : tensor<4x3x16x12xf32>, tensor<4x3x12x4xf32>) outs(%o0 : tensor<4x3x16x4xf32>) layout = "nn" {__root__}
  return %o : tensor<4x3x16x4xf32>
}

transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "dot_attention"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 0, 8], tile_interchange = [2, 1, 0]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "multihead_attention"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:3 = transform.structured.fuse_ext %0 {tile_sizes = [2, 0, 8, 0, 4], tile_interchange = [0, 1, 4, 3, 2]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
}
