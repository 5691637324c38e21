// shared-input=true: generics reading one tensor over the same loops become
// one multi-result generic. Without the option they stay apart.
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{shared-input=true}" | filecheck %s
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s --check-prefix=OFF
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{shared-input=true report=true}" 2>&1 >/dev/null | filecheck %s --check-prefix=REPORT

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// Seed 002's input_sharing example.
func.func @input_sharing(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %dim_0 = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %0 = tensor.empty(%dim, %dim_0) : tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %3 = arith.addf %in, %in_1 : f32
    linalg.yield %3 : f32
  } -> tensor<?x?xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg2 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %3 = arith.mulf %in, %in_1 : f32
    linalg.yield %3 : f32
  } -> tensor<?x?xf32>
  return %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>
}
// CHECK-LABEL: func.func @input_sharing
// CHECK:      %[[E:.*]] = tensor.empty
// CHECK-NEXT: %[[R0:.*]], %[[R1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[E]], %[[E]] : tensor<?x?xf32>, tensor<?x?xf32>) {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[A]], %[[C]] : f32
// CHECK-NEXT:   linalg.yield %[[S]], %[[M]] : f32, f32
// CHECK-NEXT: } -> (tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT: func.return %[[R0]], %[[R1]]
// OFF-LABEL: func.func @input_sharing
// OFF-COUNT-2: linalg.generic

// Three readers of %x, then a consumer of two of them: the three merge, and
// the consumer then fuses into the merged op.
func.func @three_readers_and_consumer(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.subf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.mulf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %d, %c : tensor<8xf32>, tensor<8xf32>
}
// CHECK-LABEL: func.func @three_readers_and_consumer
// CHECK:      %[[C:.*]], %[[D:.*]] = linalg.generic {{.*}} ins(%x, %y : tensor<8xf32>, tensor<8xf32>)
// CHECK-DAG:    %[[N:.*]] = arith.negf
// CHECK-DAG:    %[[S:.*]] = arith.subf
// CHECK-DAG:    %[[X:.*]] = math.exp
// CHECK-DAG:    %[[M:.*]] = arith.mulf %[[X]], %[[S]]
// CHECK:        linalg.yield %[[N]], %[[M]]
// CHECK-NOT:  linalg.generic
// CHECK:      func.return %[[D]], %[[C]]
// OFF-LABEL: func.func @three_readers_and_consumer
// OFF-COUNT-3: linalg.generic

// The shared tensor is read transposed by one and straight by the other: the
// loops do not line up, so they stay apart.
func.func @different_maps(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<6x4xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %straight = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %turned = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %straight, %turned : tensor<4x6xf32>, tensor<6x4xf32>
}
// CHECK-LABEL: func.func @different_maps
// CHECK:      %straight = linalg.generic
// CHECK:      %turned = linalg.generic
// REPORT: linalg-fuse-elementwise-ext: @different_maps: %straight into %turned not fused: input sharing: the shared input is not read through the same permutation map ((d0, d1) -> (d0, d1) and (d0, d1) -> (d1, d0))
