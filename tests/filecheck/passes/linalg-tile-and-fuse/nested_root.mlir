// Two roots: %b (its only consumer is in another block) and %a, inside the
// scf.if. Roots are tiled last first: %a's loops fuse %b, which is then
// dead and erased, so %b is computed tile by tile, and only when %c holds.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,4}' | filecheck %s

// CHECK-LABEL: func.func @nested
func.func @nested(%x: tensor<6x8xf32>, %c: i1) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<6x8xf32>
  %r = scf.if %c -> tensor<6x8xf32> {
    %a = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%b : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.mulf %v, %v : f32
      linalg.yield %m : f32
    } -> tensor<6x8xf32>
    scf.yield %a : tensor<6x8xf32>
  } else {
    scf.yield %x : tensor<6x8xf32>
  }
  return %r : tensor<6x8xf32>
}
// CHECK:          %e = tensor.empty() : tensor<6x8xf32>
// CHECK-NOT:      linalg.generic
// CHECK:          %r = scf.if %c -> (tensor<6x8xf32>) {
// CHECK:            %a = scf.for
// CHECK-NEXT:         scf.for
// CHECK:                %[[B:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x4xf32>)
// CHECK:                arith.negf
// CHECK:                linalg.generic {{.*}} ins(%[[B]] : tensor<?x4xf32>)
// CHECK:          } else {
