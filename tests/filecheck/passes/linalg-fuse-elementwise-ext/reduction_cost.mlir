// Fusing into a consumer with reduction loops only where it pays: a producer
// computing a costly math function (math.exp, ...) stays a parallel op of its
// own, where it vectorises; cheap arithmetic is still pulled into the
// reduction. `math-into-reduction=true` fuses both (the behaviour before).
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{report=true}" 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{math-into-reduction=true}" | filecheck %s --check-prefix=ALL

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>

// Softmax over rows as torch-mlir lowers it (reduce max, sub, exp, reduce
// sum, div; keepdim results through `(d0, 0)` maps). sub fuses into exp;
// exp is not pulled into the sum (and, having the sum as another user
// before it, not into the div either).
func.func @softmax(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<4x1xf32>
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%1 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.maximumf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %sub = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%sub : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = math.exp %in : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%6 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  %div = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.divf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  return %div : tensor<4x8xf32>
}
// REPORT:      @softmax: %exp into %sum not fused: the producer computes math.exp and the consumer has reduction loops: fused, it would run one element at a time in the reduction's loop (math-into-reduction=false)
// REPORT-NEXT: @softmax: %exp into %div not fused: the producer has another user before the consumer
// CHECK-LABEL: func.func @softmax
// CHECK:      %max = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:      %exp = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%{{.*}} : tensor<4x8xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[D:.*]] = arith.subf
// CHECK-NEXT:   %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT:   linalg.yield %[[E]] : f32
// CHECK-NEXT: } -> tensor<4x8xf32>
// CHECK:      %sum = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   linalg.yield
// CHECK:      %div = linalg.generic {{.*}} ins(%exp, %sum : tensor<4x8xf32>, tensor<4x1xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   arith.divf
// CHECK-NEXT:   linalg.yield
// CHECK:      func.return %div

// With the option, sub+exp run in the sum's loop, exp an extra result of it.
// ALL-LABEL: func.func @softmax
// ALL:      linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// ALL:      %{{.*}}, %{{.*}} = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %max : tensor<4x8xf32>, tensor<4x1xf32>)
// ALL:        arith.subf
// ALL-NEXT:   math.exp
// ALL-NEXT:   arith.addf
// ALL:      } -> (tensor<4x8xf32>, tensor<4x1xf32>)
// ALL-NEXT: %div = linalg.generic
// ALL:      func.return %div

// log(sum(exp(x - m))) without the log: exp has no other user, and still
// stays out of the sum (the reason is the math, not the other users).
func.func @sum_of_exp(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x1xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %shifted = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    %10 = math.exp %9 : f32
    linalg.yield %10 : f32
  } -> tensor<4x8xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %total = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%shifted : tensor<4x8xf32>) outs(%6 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  return %total : tensor<4x1xf32>
}
// REPORT:      @sum_of_exp: %shifted into %total not fused: the producer computes math.exp and the consumer has reduction loops
// CHECK-LABEL: func.func @sum_of_exp
// CHECK:      %shifted = linalg.generic
// CHECK:      %total = linalg.generic {{.*}} ins(%shifted : tensor<4x8xf32>)
// ALL-LABEL: func.func @sum_of_exp
// ALL:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%x, %m : tensor<4x8xf32>, tensor<4x1xf32>)
// ALL-NOT:   linalg.generic
// ALL:       func.return

// Cheap arithmetic feeding a sum: the whole chain, sub then square, is
// pulled into the reduction (no intermediate written or read).
func.func @sum_of_squares(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x1xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.mulf %in, %in : f32
    %10 = math.absf %9 : f32
    linalg.yield %10 : f32
  } -> tensor<4x8xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%6 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @sum_of_squares
// CHECK:      %s = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:        arith.subf
// CHECK-NEXT:   arith.mulf
// CHECK-NEXT:   math.absf
// CHECK-NEXT:   arith.addf
// CHECK-NOT:  linalg.generic

// A cheap producer with another user (the div) is still pulled into the sum:
// its result becomes an extra result of the reduction, nothing is computed
// twice.
func.func @normalize_squares(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x1xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.mulf %in, %in : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%6 : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<4x1xf32>
  %div = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%sq, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.divf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> tensor<4x8xf32>
  return %div : tensor<4x8xf32>
}
// REPORT-NOT: @sum_of_squares
// CHECK-LABEL: func.func @normalize_squares
// CHECK:      %[[SQ:.*]], %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK:        arith.mulf
// CHECK-NEXT:   arith.addf
// CHECK:      } -> (tensor<4x8xf32>, tensor<4x1xf32>)
// CHECK-NEXT: %div = linalg.generic {{.*}} ins(%[[SQ]], %[[SUM]] : tensor<4x8xf32>, tensor<4x1xf32>)
