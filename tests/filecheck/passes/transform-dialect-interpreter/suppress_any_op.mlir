// failures(suppress) and ByteIR's other spellings: !transform.any_op handles,
// the older structured.fuse form, a bare op name (`cast`). The matmul is
// tiled 3x4 with its fill fused (no loop tiles k); peeling the 8-by-4 loop
// fails (no partial step) and is skipped: the script goes on and tiles the
// fused matmul along k by 2 (the fill stays before that loop).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @matmul_fill
func.func @matmul_fill(%a: tensor<6x5xf32>, %b: tensor<5x8xf32>) -> tensor<6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<6x5xf32>, tensor<5x8xf32>) outs(%fill : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}

// CHECK-NOT:  linalg.
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<6x8xf32>) {
// CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<6x8xf32>) {
// CHECK:          %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [3, 4] [1, 1]
// CHECK-NEXT:     %[[FILL:.*]] = linalg.fill ins(%zero : f32) outs(%[[OUT]] : tensor<3x4xf32>)
// CHECK:          scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FILL]]) -> (tensor<3x4xf32>) {
// CHECK:            linalg.matmul
// CHECK-NOT:  scf.for
// CHECK-NOT:  transform.
transform.sequence failures(suppress) {
^bb1(%arg1: !transform.any_op):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %arg1 : (!transform.any_op) -> !transform.any_op
  %1, %loops:2 = transform.structured.fuse %0 {tile_sizes = [3, 4], tile_interchange = [0, 1]} :
    (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
  %2 = cast %loops#1 : !transform.any_op to !transform.op<"scf.for">
  %main, %rest = transform.loop.peel %2 : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
  %3, %k = transform.structured.tile_using_for %1 tile_sizes [0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
}
