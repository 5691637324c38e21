// Flash attention by fusion: Q·Kᵀ → softmax → ·V with the P·V matmul the
// root, tiled along k (8, keys) and rows (4, queries; 10 rows and 12 keys:
// partial tiles both ways). The softmax is computed per k tile from the
// running max and sum, carried by the loops from their fills (which stay
// before the loops, as does the root's zero init), and the rows accumulated
// so far are rescaled by diag(scale) before P·V is added. The scores'
// producers (the scaling generic, Q·Kᵀ and its fill) are fused per tile: no
// op outside the loops computes a 10x12 tensor.
// unnorm_softmax: the same recurrence with scale = exp(m_old - m_new); the
// final sum (the loops' third result) divides the result after the loops.
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,0,8 tile-interchange=2,1,0}' | filecheck %s
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,0,8 tile-interchange=0,2,1}' | filecheck %s --check-prefix=ROWS

// CHECK-LABEL: func.func @attention
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.generic
// CHECK-DAG:     %[[M0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<10xf32>)
// CHECK-DAG:     %[[A0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<10xf32>)
// CHECK-DAG:     %[[O0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<10x8xf32>)
// CHECK:         %[[R:.*]], %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %[[O0]], %[[M:.*]] = %[[M0]], %[[A:.*]] = %[[A0]])
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OI:.*]] = %[[O]], %[[MI:.*]] = %[[M]], %[[AI:.*]] = %[[A]])
// CHECK:             %[[S:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<8x?xf32>)
// CHECK:             %[[SC:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<?x?xf32>)
// CHECK-DAG:         %[[MS:.*]] = tensor.extract_slice %[[MI]][%[[I]]]
// CHECK-DAG:         %[[AS:.*]] = tensor.extract_slice %[[AI]][%[[I]]]
// CHECK:             %[[P:.*]], %[[PM:.*]], %[[PA:.*]], %[[PS:.*]] = linalg_ext.softmax dimension(1) ins(%[[SC]] : tensor<?x?xf32>) outs(%{{.*}}, %[[MS]], %[[AS]], %{{.*}} :
// CHECK-DAG:         %[[V:.*]] = tensor.extract_slice %{{.*}}[%[[K]], 0]
// CHECK-DAG:         %[[OLD:.*]] = tensor.extract_slice %[[OI]][%[[I]], 0]
// CHECK-DAG:         %[[D:.*]] = linalg_ext.diag ins(%[[PS]] : tensor<?xf32>) outs(%{{.*}} : tensor<?x?xf32>)
// CHECK-DAG:         %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK:             %[[RS:.*]] = linalg.matmul ins(%[[D]], %[[OLD]] : tensor<?x?xf32>, tensor<?x8xf32>) outs(%[[Z]] : tensor<?x8xf32>)
// CHECK:             %[[T:.*]] = linalg.matmul {__root__} ins(%[[P]], %[[V]] : tensor<?x?xf32>, tensor<?x8xf32>) outs(%[[RS]] : tensor<?x8xf32>)
// CHECK-DAG:         %[[W:.*]] = tensor.insert_slice %[[T]] into %[[OI]][%[[I]], 0]
// CHECK-DAG:         %[[WM:.*]] = tensor.insert_slice %[[PM]] into %[[MI]][%[[I]]]
// CHECK-DAG:         %[[WA:.*]] = tensor.insert_slice %[[PA]] into %[[AI]][%[[I]]]
// CHECK:             scf.yield %[[W]], %[[WM]], %[[WA]]
// CHECK:         return %[[R]] : tensor<10x8xf32>

// ROWS-LABEL: func.func @attention
// ROWS:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// ROWS:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// ROWS:             linalg_ext.softmax dimension(1)
// ROWS:             linalg_ext.diag
// ROWS:             linalg.matmul {__root__}
func.func @attention(%q: tensor<10x8xf32>, %kt: tensor<8x12xf32>, %v: tensor<12x8xf32>) -> tensor<10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<10x12xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<10x12xf32>) -> tensor<10x12xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<10x8xf32>, tensor<8x12xf32>) outs(%s0 : tensor<10x12xf32>) -> tensor<10x12xf32>
  %ss = tensor.empty() : tensor<10x12xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<10x12xf32>) outs(%ss : tensor<10x12xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 0.35 : f32
    %r = arith.mulf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<10x12xf32>
  %er = tensor.empty() : tensor<10xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<10xf32>) -> tensor<10xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%er : tensor<10xf32>) -> tensor<10xf32>
  %ep = tensor.empty() : tensor<10x12xf32>
  %scale = tensor.empty() : tensor<10xf32>
  %p:4 = linalg_ext.softmax dimension(1) ins(%sc : tensor<10x12xf32>)
      outs(%ep, %m0, %a0, %scale : tensor<10x12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
      : tensor<10x12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>
  %eo = tensor.empty() : tensor<10x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<10x8xf32>) -> tensor<10x8xf32>
  %o = linalg.matmul {__root__} ins(%p#0, %v : tensor<10x12xf32>, tensor<12x8xf32>) outs(%o0 : tensor<10x8xf32>) -> tensor<10x8xf32>
  return %o : tensor<10x8xf32>
}

// CHECK-LABEL: func.func @unnorm_attention
// CHECK:         %[[R:.*]], %{{.*}}, %[[SUM:.*]] = scf.for
// CHECK:           scf.for
// CHECK:             linalg_ext.unnorm_softmax dimension(1)
// CHECK:             linalg_ext.diag
// CHECK:             linalg.matmul
// CHECK:             linalg.matmul {__root__}
// CHECK:         %[[N:.*]] = linalg.generic {{.*}} ins(%[[R]], %[[SUM]] : tensor<10x8xf32>, tensor<10xf32>)
// CHECK:         return %[[N]] : tensor<10x8xf32>
func.func @unnorm_attention(%q: tensor<10x8xf32>, %kt: tensor<8x12xf32>, %v: tensor<12x8xf32>) -> tensor<10x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %es = tensor.empty() : tensor<10x12xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<10x12xf32>) -> tensor<10x12xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<10x8xf32>, tensor<8x12xf32>) outs(%s0 : tensor<10x12xf32>) -> tensor<10x12xf32>
  %er = tensor.empty() : tensor<10xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<10xf32>) -> tensor<10xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%er : tensor<10xf32>) -> tensor<10xf32>
  %ep = tensor.empty() : tensor<10x12xf32>
  %scale = tensor.empty() : tensor<10xf32>
  %p:4 = linalg_ext.unnorm_softmax dimension(1) ins(%s : tensor<10x12xf32>)
      outs(%ep, %m0, %a0, %scale : tensor<10x12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
      : tensor<10x12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>
  %eo = tensor.empty() : tensor<10x8xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<10x8xf32>) -> tensor<10x8xf32>
  %o = linalg.matmul {__root__} ins(%p#0, %v : tensor<10x12xf32>, tensor<12x8xf32>) outs(%o0 : tensor<10x8xf32>) -> tensor<10x8xf32>
  %ed = tensor.empty() : tensor<10x8xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%o, %p#2 : tensor<10x8xf32>, tensor<10xf32>) outs(%ed : tensor<10x8xf32>) {
  ^bb0(%x: f32, %a: f32, %y: f32):
    %r = arith.divf %x, %a : f32
    linalg.yield %r : f32
  } -> tensor<10x8xf32>
  return %n : tensor<10x8xf32>
}
