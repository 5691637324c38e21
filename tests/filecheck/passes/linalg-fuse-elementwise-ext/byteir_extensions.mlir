// ByteIR's extensions of elementwise fusion: producers with other users,
// consumers of several results, linalg.map and named ops, inits that are only
// shapes, and diff-shapes.
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{diff-shapes=true}" | filecheck %s --check-prefix=DIFF

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// %t is also returned: it becomes a second result of the fused op, computed
// once (upstream leaves the pair unfused; recomputing would do the work twice).
func.func @intermediate_kept(%a: tensor<4x5xf32>, %b: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %e = tensor.empty() : tensor<4x5xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %u = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %b : tensor<4x5xf32>, tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  return %u, %t : tensor<4x5xf32>, tensor<4x5xf32>
}
// CHECK-LABEL: func.func @intermediate_kept
// CHECK:      %[[F:.*]], %[[G:.*]] = linalg.generic {{.*}} ins(%a, %b : tensor<4x5xf32>, tensor<4x5xf32>) outs(%e, %e : tensor<4x5xf32>, tensor<4x5xf32>) {
// CHECK:        %[[X:.*]] = math.exp
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[X]]
// CHECK-NEXT:   linalg.yield %[[X]], %[[M]] : f32, f32
// CHECK-NEXT: } -> (tensor<4x5xf32>, tensor<4x5xf32>)
// CHECK-NEXT: func.return %[[G]], %[[F]]

// The consumer reads both results of a two-result producer: both are fused.
func.func @two_results(%a: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %s, %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<6xf32>) outs(%e, %e : tensor<6xf32>, tensor<6xf32>) {
  ^bb0(%x: f32, %o1: f32, %o2: f32):
    %sin = math.sin %x : f32
    %cos = math.cos %x : f32
    linalg.yield %sin, %cos : f32, f32
  } -> (tensor<6xf32>, tensor<6xf32>)
  %sum = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s, %c : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %sum : tensor<6xf32>
}
// CHECK-LABEL: func.func @two_results
// CHECK:      %[[R:.*]] = linalg.generic {{.*}} ins(%a : tensor<6xf32>) outs(%e : tensor<6xf32>) {
// CHECK:        %[[S:.*]] = math.sin
// CHECK-NEXT:   %[[C:.*]] = math.cos
// CHECK-NEXT:   %[[A:.*]] = arith.addf %[[S]], %[[C]]
// CHECK-NEXT:   linalg.yield %[[A]] : f32
// CHECK:      func.return %[[R]]

// linalg.map and named elementwise ops are generalised, then fused.
func.func @map_and_named(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %m = linalg.map { math.absf } ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)
  %s = linalg.sub ins(%m, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %x = linalg.exp ins(%s : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %x : tensor<8xf32>
}
// CHECK-LABEL: func.func @map_and_named
// CHECK:      linalg.generic {{.*}} ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>)
// CHECK:        math.absf
// CHECK-NEXT:   arith.subf
// CHECK-NEXT:   math.exp
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: func.return

// Seed 002's may_more_break_outs_dependency: both inits are only shapes.
// Replaced by tensor.empty sized like %arg0 (not like the intermediate), the
// second op no longer uses the first twice, and the two fuse.
func.func @may_more_break_outs_dependency(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<?x?xf32>) outs(%arg0 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.addf %in, %in : f32
    linalg.yield %2 : f32
  } -> tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.mulf %in, %in : f32
    linalg.yield %2 : f32
  } -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @may_more_break_outs_dependency
// CHECK:      %[[D0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK:      %[[D1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?xf32>
// CHECK:      %[[E:.*]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK:      linalg.generic {{.*}} ins(%arg0 : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>)
// CHECK:        arith.addf
// CHECK-NEXT:   arith.mulf
// CHECK-NOT:  linalg.generic

// tensor.dim of an intermediate is the dim of the tensor it was sized from.
func.func @dim_of_intermediate(%a: tensor<?xf32>) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %m = tensor.dim %t, %c0 : tensor<?xf32>
  %e2 = tensor.empty(%m) : tensor<?xf32>
  %u = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%t : tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %u, %m : tensor<?xf32>, index
}
// CHECK-LABEL: func.func @dim_of_intermediate
// CHECK:      %[[N:.*]] = tensor.dim %a, %c0 : tensor<?xf32>
// CHECK-NOT:  tensor.dim
// CHECK:      %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK-NEXT: %[[U:.*]] = linalg.generic {{.*}} ins(%a : tensor<?xf32>) outs(%[[E2]] : tensor<?xf32>)
// CHECK:      func.return %[[U]], %[[N]]

// diff-shapes: the producer's result is returned and its shape (3x4) is not
// the consumer's (4x3). Kept apart by default; fused with diff-shapes=true.
func.func @returned_other_shape(%a: tensor<3x4xf32>) -> (tensor<4x3xf32>, tensor<3x4xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<3x4xf32>
  %c = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<3x4xf32>) outs(%e2 : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  return %c, %p : tensor<4x3xf32>, tensor<3x4xf32>
}
// CHECK-LABEL: func.func @returned_other_shape
// CHECK:      %p = linalg.generic
// CHECK:      %c = linalg.generic
// DIFF-LABEL: func.func @returned_other_shape
// DIFF:       %[[P:.*]], %[[C:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a : tensor<3x4xf32>) outs(%e, %e2 : tensor<3x4xf32>, tensor<4x3xf32>)
// DIFF:       func.return %[[C]], %[[P]]
