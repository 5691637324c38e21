// transform.structured.fuse on dynamic shapes, with a tile size the payload
// computes (a handle to its defining op) and the interchange given by a
// parameter: the column loop (by 3) is outermost, the row loop steps by %ts;
// both clamp their last tile. Only parallel loops: the fill of the init is
// fused (each tile zeroes its own part once).
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @f(
  func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = tensor.dim %a, %c0 : tensor<?x?xf32>
    %n = tensor.dim %b, %c1 : tensor<?x?xf32>
    %ts = arith.maxsi %m, %c1 {ts} : index
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty(%m, %n) : tensor<?x?xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  // CHECK:      %[[TS:.*]] = arith.maxsi %m, %c1 {ts} : index
  // CHECK:      %[[THREE:.*]] = arith.constant 3 : index
  // CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %n step %[[THREE]] iter_args(%{{.*}} = %e) -> (tensor<?x?xf32>) {
  // CHECK-NEXT:   scf.for %[[I:.*]] = %c0 to %m step %[[TS]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?x?xf32>) {
  // CHECK-NEXT:     %[[W:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[J]], %n)
  // CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0, d1, d2) -> (((d0 * -1) + d1), d2)> (%[[I]], %m, %[[TS]])
  // CHECK:          %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
  // CHECK-NEXT:     %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[OUT]] : tensor<?x?xf32>) -> tensor<?x?xf32>
  // CHECK-NEXT:     linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>) -> tensor<?x?xf32>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %ts = transform.structured.match attributes {ts} in %root : (!transform.any_op) -> !transform.any_op
    %one = transform.param.constant 1 : i64 -> !transform.param<i64>
    %t, %l:2 = transform.structured.fuse %mm tile_sizes [%ts, 3] interchange [%one, 0] {apply_cleanup} : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
