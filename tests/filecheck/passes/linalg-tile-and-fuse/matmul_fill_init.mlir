// A matmul whose init is a linalg.fill. Tiled along i and j only (every loop
// parallel), each tile's init is filled once inside the loops: the fill is
// fused, writing into the slice of the carried tensor, and the loops carry
// the fill's own init. Tiled along i and k, a loop runs over the reduction:
// each k step must add onto what the previous steps left, so the fill stays
// before the loops and runs once (MLIR 22's transform.structured.fuse fuses
// it there and re-zeroes the accumulator on every k step).
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,8}' | filecheck %s --check-prefix=IJ
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,0,2}' | filecheck %s --check-prefix=K

func.func @matmul(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x12xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x12xf32>) -> tensor<16x12xf32>
  %product = linalg.matmul ins(%A, %B : tensor<16x8xf32>, tensor<8x12xf32>) outs(%filled : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %product : tensor<16x12xf32>
}

// IJ-LABEL: func.func @matmul
// IJ:          %empty = tensor.empty() : tensor<16x12xf32>
// IJ-NOT:      linalg.fill
// IJ:          %product = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %empty) -> (tensor<16x12xf32>) {
// IJ-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<16x12xf32>) {
// IJ-NEXT:         %[[N:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 8)> (%[[J]])
// IJ-NEXT:         %[[A:.*]] = tensor.extract_slice %A[%[[I]], 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
// IJ-NEXT:         %[[B:.*]] = tensor.extract_slice %B[0, %[[J]]] [8, %[[N]]] [1, 1] : tensor<8x12xf32> to tensor<8x?xf32>
// IJ-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [4, %[[N]]] [1, 1] : tensor<16x12xf32> to tensor<4x?xf32>
// IJ-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[D]] : tensor<4x?xf32>) -> tensor<4x?xf32>
// IJ-NEXT:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x?xf32>) outs(%[[F]] : tensor<4x?xf32>) -> tensor<4x?xf32>
// IJ-NEXT:         %[[R:.*]] = tensor.insert_slice %[[M]] into %[[ACC]][%[[I]], %[[J]]] [4, %[[N]]] [1, 1] : tensor<4x?xf32> into tensor<16x12xf32>
// IJ-NEXT:         scf.yield %[[R]] : tensor<16x12xf32>

// K-LABEL: func.func @matmul
// K:          %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x12xf32>) -> tensor<16x12xf32>
// K:          %product = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %filled) -> (tensor<16x12xf32>) {
// K-NEXT:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<16x12xf32>) {
// K-NEXT:         %[[A:.*]] = tensor.extract_slice %A[%[[I]], %[[K]]] [4, 2] [1, 1] : tensor<16x8xf32> to tensor<4x2xf32>
// K-NEXT:         %[[B:.*]] = tensor.extract_slice %B[%[[K]], 0] [2, 12] [1, 1] : tensor<8x12xf32> to tensor<2x12xf32>
// K-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [4, 12] [1, 1] : tensor<16x12xf32> to tensor<4x12xf32>
// K-NEXT:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x2xf32>, tensor<2x12xf32>) outs(%[[D]] : tensor<4x12xf32>) -> tensor<4x12xf32>
// K-NEXT:         %[[R:.*]] = tensor.insert_slice %[[M]] into %[[ACC]][%[[I]], 0] [4, 12] [1, 1] : tensor<4x12xf32> into tensor<16x12xf32>
// K-NEXT:         scf.yield %[[R]] : tensor<16x12xf32>
// K-NOT:      linalg.fill
