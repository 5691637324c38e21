// transform.structured.fuse of a matmul whose init is a linalg.fill, tiled
// along k too (interchanged: i, k, j). The fill must stay before the loops:
// inside the k loop it would zero the accumulator on every k step (MLIR 22's
// transform.structured.fuse does exactly that, and computes only the last k
// tile's product; tests/unit/test_transform_ops.py runs both). A parallel-only
// tiling (@parallel) fuses the same fill into the loops.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @along_k
  func.func @along_k(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>) -> tensor<8x6xf32> {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<8x6xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x6xf32>) -> tensor<8x6xf32>
    %mm = linalg.matmul {root = "k"} ins(%a, %b : tensor<8x12xf32>, tensor<12x6xf32>) outs(%fill : tensor<8x6xf32>) -> tensor<8x6xf32>
    return %mm : tensor<8x6xf32>
  }
  // CHECK:      %[[FILL:.*]] = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x6xf32>) -> tensor<8x6xf32>
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FILL]]) -> (tensor<8x6xf32>) {
  // CHECK-NEXT:   scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
  // CHECK-NEXT:     scf.for
  // CHECK-NOT:        linalg.fill
  // CHECK:            linalg.matmul {root = "k"} ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK-NOT:      linalg.fill
  // CHECK:      func.return

  // CHECK-LABEL: func.func @parallel
  func.func @parallel(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>) -> tensor<8x6xf32> {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<8x6xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x6xf32>) -> tensor<8x6xf32>
    %mm = linalg.matmul {root = "parallel"} ins(%a, %b : tensor<8x12xf32>, tensor<12x6xf32>) outs(%fill : tensor<8x6xf32>) -> tensor<8x6xf32>
    return %mm : tensor<8x6xf32>
  }
  // CHECK-NOT:  linalg.fill
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %empty) -> (tensor<8x6xf32>) {
  // CHECK-NEXT:   scf.for
  // CHECK:          %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT:     linalg.matmul {root = "parallel"} ins(%{{.*}}, %{{.*}} : tensor<4x12xf32>, tensor<12x3xf32>) outs(%[[F]] : tensor<4x3xf32>) -> tensor<4x3xf32>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.structured.match ops{["linalg.matmul"]} attributes {root = "k"} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0:3 = transform.structured.fuse %k tile_sizes [4, 3, 4] interchange [0, 2, 1] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %p = transform.structured.match ops{["linalg.matmul"]} attributes {root = "parallel"} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1:2 = transform.structured.fuse %p tile_sizes [4, 3] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
