// `permutations-into-contractions`: a transpose or broadcast (or a generic
// that only moves its input's elements) read by a contraction is folded
// into it: the contraction, generalised, reads the source through a
// composed map (GEMM with transB, attention's Q.K^T). A collapse of a
// transpose (heads folded into the batch) is read through by expanding the
// contraction's loops. Without the option nothing changes.
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{permutations-into-contractions=true}" | filecheck %s
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s --check-prefix=OFF

// OFF-LABEL: func.func @trans_b
// OFF:         linalg.transpose
// OFF:         linalg.matmul

// CHECK-LABEL: func.func @trans_b
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : tensor<4x8xf32>, tensor<6x8xf32>) outs(%acc : tensor<4x6xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[Z]], %[[M]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
func.func @trans_b(%a: tensor<4x8xf32>, %w: tensor<6x8xf32>, %acc: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<8x6xf32>
  %t = linalg.transpose ins(%w : tensor<6x8xf32>) outs(%e : tensor<8x6xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%a, %t : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// Attention's K^T: a transposed activation, which also has another user
// (the transpose stays for it).
// CHECK-LABEL: func.func @q_kt
// CHECK:       %[[T:.*]] = linalg.transpose
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x5x3xf32>, tensor<2x5x3xf32>)
// CHECK:       func.return %{{.*}}, %[[T]]
func.func @q_kt(%q: tensor<2x5x3xf32>, %k: tensor<2x5x3xf32>, %acc: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x3x5xf32>) {
  %e = tensor.empty() : tensor<2x3x5xf32>
  %t = linalg.transpose ins(%k : tensor<2x5x3xf32>) outs(%e : tensor<2x3x5xf32>) permutation = [0, 2, 1]
  %r = linalg.batch_matmul ins(%q, %t : tensor<2x5x3xf32>, tensor<2x3x5xf32>) outs(%acc : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  return %r, %t : tensor<2x5x5xf32>, tensor<2x3x5xf32>
}

// A weight broadcast along the batch is read without the batch loop.
// CHECK-LABEL: func.func @broadcast_weight
// CHECK-NOT:   linalg.broadcast
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], {{.*}} ins(%x, %w : tensor<?x5x3xf32>, tensor<3x4xf32>)
func.func @broadcast_weight(%x: tensor<?x5x3xf32>, %w: tensor<3x4xf32>, %acc: tensor<?x5x4xf32>) -> tensor<?x5x4xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x5x3xf32>
  %e = tensor.empty(%n) : tensor<?x3x4xf32>
  %b = linalg.broadcast ins(%w : tensor<3x4xf32>) outs(%e : tensor<?x3x4xf32>) dimensions = [0]
  %r = linalg.batch_matmul ins(%x, %b : tensor<?x5x3xf32>, tensor<?x3x4xf32>) outs(%acc : tensor<?x5x4xf32>) -> tensor<?x5x4xf32>
  return %r : tensor<?x5x4xf32>
}

// A generic that only transposes its input counts too; so does a
// contraction that is already a generic.
// CHECK-LABEL: func.func @generic_transpose
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], {{.*}} ins(%a, %b : tensor<8x4xf32>, tensor<8x6xf32>)
// CHECK-NOT:   linalg.generic
func.func @generic_transpose(%a: tensor<8x4xf32>, %b: tensor<8x6xf32>, %acc: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%acc : tensor<4x6xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.mulf %y, %x : f32
    %s = arith.addf %m, %z : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// Heads folded into the batch: collapse(transpose(x)). The contraction's
// batch loop is split in two to read the transpose's source.
// CHECK-LABEL: func.func @heads
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x5x3x4xf32>, tensor<2x5x3x4xf32>)
// CHECK:       tensor.collapse_shape
func.func @heads(%q: tensor<2x5x3x4xf32>, %k: tensor<2x5x3x4xf32>) -> tensor<6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<2x3x5x4xf32>
  %tq = linalg.transpose ins(%q : tensor<2x5x3x4xf32>) outs(%eq : tensor<2x3x5x4xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<2x3x4x5xf32>
  %tk = linalg.transpose ins(%k : tensor<2x5x3x4xf32>) outs(%ek : tensor<2x3x4x5xf32>) permutation = [0, 2, 3, 1]
  %cq = tensor.collapse_shape %tq [[0, 1], [2], [3]] : tensor<2x3x5x4xf32> into tensor<6x5x4xf32>
  %ck = tensor.collapse_shape %tk [[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
  %e = tensor.empty() : tensor<6x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<6x5x5xf32>) -> tensor<6x5x5xf32>
  %r = linalg.batch_matmul ins(%cq, %ck : tensor<6x5x4xf32>, tensor<6x4x5xf32>) outs(%acc : tensor<6x5x5xf32>) -> tensor<6x5x5xf32>
  return %r : tensor<6x5x5xf32>
}

// Not folded: a computed operand (it would be recomputed for every k and
// the body would no longer be a multiply-add); broadcasts along the
// reduction or a row / column loop (without it, the contraction is not one
// the micro-kernel takes). Only batch loops may go.
// CHECK-LABEL: func.func @kept
// CHECK:       linalg.matmul
// CHECK:       linalg.broadcast
// CHECK:       linalg.broadcast
// CHECK:       linalg.matmul
// CHECK-NOT:   linalg.generic
func.func @kept(%a: tensor<4x3xf32>, %b: tensor<3x6xf32>, %acc: tensor<4x6xf32>, %v1: tensor<4xf32>, %v2: tensor<6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x3xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x3xf32>) outs(%e : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = arith.negf %in : f32
    linalg.yield %x : f32
  } -> tensor<4x3xf32>
  %r = linalg.matmul ins(%n, %b : tensor<4x3xf32>, tensor<3x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  %ba = linalg.broadcast ins(%v1 : tensor<4xf32>) outs(%e : tensor<4x3xf32>) dimensions = [1]
  %eb = tensor.empty() : tensor<3x6xf32>
  %bb = linalg.broadcast ins(%v2 : tensor<6xf32>) outs(%eb : tensor<3x6xf32>) dimensions = [0]
  %s = linalg.matmul ins(%ba, %bb : tensor<4x3xf32>, tensor<3x6xf32>) outs(%acc : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %r, %s : tensor<4x6xf32>, tensor<4x6xf32>
}
