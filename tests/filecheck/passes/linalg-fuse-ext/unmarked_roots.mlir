// linalg-fuse-ext with no op marked __root__: every root (a tileable op
// whose results no other tileable op of its block reads) is tiled, the
// last first, and its cone fused. Here the mul and the negf: two loop
// nests, every linalg op inside one of them, the exp read twice by the
// add and the mul computed once per tile.
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=8}' | filecheck %s

// CHECK-LABEL: func.func @unmarked(
// CHECK-NOT:     linalg.
// CHECK:         %[[R0:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<16x8xf32>) {
// CHECK:           %[[EXP:.*]] = linalg.exp ins(%{{.*}} : tensor<8x8xf32>)
// CHECK-NOT:       linalg.exp
// CHECK:           %[[ADD:.*]] = linalg.add ins(%[[EXP]], %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:           linalg.mul ins(%[[ADD]], %[[EXP]] : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:         %[[R1:.*]] = scf.for
// CHECK:           linalg.sub ins(%{{.*}}, %{{.*}} : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK:           linalg.negf ins(%{{.*}} : tensor<8x8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R0]], %[[R1]] : tensor<16x8xf32>, tensor<16x8xf32>
func.func @unmarked(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.exp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.add ins(%0, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = linalg.mul ins(%1, %0 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = linalg.sub ins(%a, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = linalg.negf ins(%3 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %2, %4 : tensor<16x8xf32>, tensor<16x8xf32>
}
