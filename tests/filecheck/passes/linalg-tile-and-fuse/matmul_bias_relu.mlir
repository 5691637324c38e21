// matmul + bias + relu, the root the bias+relu generic: tiled along its two
// (parallel) loops, the matmul is computed per tile over the whole k, and the
// fill of its init with it (that fill is the producer of the fused matmul
// tile's init: the tile runs its whole reduction inside the iteration, so the
// fill is exact there). The fill writes into a tensor.empty of the tile's
// shape: the whole %empty is gone, the loops carry the relu's %out.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=8,4}' | filecheck %s

// CHECK-LABEL: func.func @matmul_bias_relu
func.func @matmul_bias_relu(%A: tensor<16x24xf32>, %B: tensor<24x12xf32>, %bias: tensor<12xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x12xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x12xf32>) -> tensor<16x12xf32>
  %product = linalg.matmul ins(%A, %B : tensor<16x24xf32>, tensor<24x12xf32>) outs(%filled : tensor<16x12xf32>) -> tensor<16x12xf32>
  %out = tensor.empty() : tensor<16x12xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%product, %bias : tensor<16x12xf32>, tensor<12xf32>) outs(%out : tensor<16x12xf32>) {
  ^bb0(%p: f32, %b: f32, %o: f32):
    %sum = arith.addf %p, %b : f32
    %max = arith.maximumf %sum, %zero : f32
    linalg.yield %max : f32
  } -> tensor<16x12xf32>
  return %relu : tensor<16x12xf32>
}
// CHECK:          %out = tensor.empty() : tensor<16x12xf32>
// CHECK-NOT:      linalg
// CHECK-NOT:      tensor.empty
// CHECK:          %relu = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %out) -> (tensor<16x12xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<16x12xf32>) {
// CHECK-NEXT:         %[[A:.*]] = tensor.extract_slice %A[%[[I]], 0] [8, 24] [1, 1] : tensor<16x24xf32> to tensor<8x24xf32>
// CHECK-NEXT:         %[[B:.*]] = tensor.extract_slice %B[0, %[[J]]] [24, 4] [1, 1] : tensor<24x12xf32> to tensor<24x4xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty() : tensor<8x4xf32>
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<8x24xf32>, tensor<24x4xf32>) outs(%[[F]] : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:         %[[BIAS:.*]] = tensor.extract_slice %bias[%[[J]]] [4] [1] : tensor<12xf32> to tensor<4xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [8, 4] [1, 1] : tensor<16x12xf32> to tensor<8x4xf32>
// CHECK-NEXT:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[BIAS]] : tensor<8x4xf32>, tensor<4xf32>) outs(%[[D]] : tensor<8x4xf32>) {
// CHECK:            } -> tensor<8x4xf32>
// CHECK-NEXT:         tensor.insert_slice %[[R]] into %[[ACC]][%[[I]], %[[J]]] [8, 4] [1, 1] : tensor<8x4xf32> into tensor<16x12xf32>
