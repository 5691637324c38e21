// Two matmuls, the second the root tiled by 4 rows and by 8 along its k
// (the first's columns). The second's fill stays before the loops (its k
// tiles accumulate); the first matmul is fused, a 4x8 tile of it per
// iteration computed over its whole reduction, so its own fill is fused
// too (every loop tiles a parallel dimension of the first). When the
// first product is also returned, its tiles are yielded from the loops.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @matmul_matmul(
// CHECK-SAME:      %[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<8x12xf32>, %[[C:.*]]: tensor<12x20xf32>)
// CHECK:         %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x20xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[F1]]) -> (tensor<16x20xf32>) {
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16x20xf32>) {
// CHECK-NEXT:        %[[KS:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 8)> (%[[K]])
// CHECK-NEXT:        %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [4, 8] [1, 1]
// CHECK-NEXT:        %[[BS:.*]] = tensor.extract_slice %[[B]][0, %[[K]]] [8, %[[KS]]] [1, 1]
// CHECK-NEXT:        %[[E0:.*]] = tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] : tensor<4x?xf32>)
// CHECK-NEXT:        %[[M0:.*]] = linalg.matmul ins(%[[AS]], %[[BS]] : tensor<4x8xf32>, tensor<8x?xf32>) outs(%[[F0]] : tensor<4x?xf32>)
// CHECK-NEXT:        %[[CS:.*]] = tensor.extract_slice %[[C]][%[[K]], 0] [%[[KS]], 20] [1, 1]
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [4, 20] [1, 1]
// CHECK-NEXT:        linalg.matmul {__root__} ins(%[[M0]], %[[CS]] : tensor<4x?xf32>, tensor<?x20xf32>) outs(%[[OUT]] : tensor<4x20xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<16x20xf32>
func.func @matmul_matmul(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>, %c: tensor<12x20xf32>) -> tensor<16x20xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x12xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>) outs(%f0 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %e1 = tensor.empty() : tensor<16x20xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %m1 = linalg.matmul {__root__} ins(%m0, %c : tensor<16x12xf32>, tensor<12x20xf32>) outs(%f1 : tensor<16x20xf32>) -> tensor<16x20xf32>
  return %m1 : tensor<16x20xf32>
}

// The same, both products returned, k outermost: the loops' second result
// is the first product, written tile by tile.
// CHECK-LABEL: func.func @matmul_matmul_two_outputs(
// CHECK:         %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x20xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]], %[[P:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[F1]], %{{.*}} = %{{.*}}) -> (tensor<16x20xf32>, tensor<16x12xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[KEPT:.*]] = %{{.*}}) -> (tensor<16x20xf32>, tensor<16x12xf32>) {
// CHECK:             %[[M0:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x?xf32>)
// CHECK:             %[[M1:.*]] = linalg.matmul {__root__} ins(%[[M0]], %{{.*}} : tensor<4x?xf32>, tensor<?x20xf32>)
// CHECK-NEXT:        %[[W0:.*]] = tensor.insert_slice %[[M1]] into %[[ACC]][%[[I]], 0] [4, 20] [1, 1]
// CHECK-NEXT:        %[[W1:.*]] = tensor.insert_slice %[[M0]] into %[[KEPT]][%[[I]], %[[K]]] [4, %{{.*}}] [1, 1]
// CHECK-NEXT:        scf.yield %[[W0]], %[[W1]] : tensor<16x20xf32>, tensor<16x12xf32>
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]], %[[P]] : tensor<16x20xf32>, tensor<16x12xf32>
func.func @matmul_matmul_two_outputs(%a: tensor<16x8xf32>, %b: tensor<8x12xf32>, %c: tensor<12x20xf32>) -> (tensor<16x20xf32>, tensor<16x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<16x12xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %m0 = linalg.matmul ins(%a, %b : tensor<16x8xf32>, tensor<8x12xf32>) outs(%f0 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %e1 = tensor.empty() : tensor<16x20xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x20xf32>) -> tensor<16x20xf32>
  %m1 = linalg.matmul {__root__} ins(%m0, %c : tensor<16x12xf32>, tensor<12x20xf32>) outs(%f1 : tensor<16x20xf32>) -> tensor<16x20xf32>
  return %m1, %m0 : tensor<16x20xf32>, tensor<16x12xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "matmul_matmul"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 0, 8], tile_interchange = [0, 1, 2]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "matmul_matmul_two_outputs"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 0, 8], tile_interchange = [2, 1, 0]}
  cleanup
}
