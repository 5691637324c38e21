// Producer-consumer fusion, the cases upstream's --linalg-fuse-elementwise-ops
// fuses: maps composed as inverse(producer result map) then the consumer's map.
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#scalar = affine_map<(d0, d1) -> ()>

func.func @sub_then_div(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %c : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %q : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @sub_then_div
// CHECK:      %[[Q:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b, %c : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   %[[R:.*]] = arith.divf %[[S]], %[[Z]] : f32
// CHECK-NEXT:   linalg.yield %[[R]] : f32
// CHECK:      func.return %[[Q]]

// Scalar operands keep their `()` map; the producer transposes its input.
func.func @scalars_and_transpose(%a: tensor<3x5xf32>, %s: f32, %t: f32) -> tensor<5x3xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %p = linalg.generic {indexing_maps = [#tr, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : tensor<3x5xf32>, f32) outs(%e : tensor<5x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<5x3xf32>
  %c = linalg.generic {indexing_maps = [#id, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %t : tensor<5x3xf32>, f32) outs(%e : tensor<5x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}
// CHECK-LABEL: func.func @scalars_and_transpose
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %s, %t : tensor<3x5xf32>, f32, f32)
// CHECK:        arith.mulf
// CHECK-NEXT:   arith.addf
// CHECK-NOT:  linalg.generic

// The consumer reads the producer transposed: the producer's maps are
// composed with the transposition.
func.func @consumer_transposes(%a: tensor<4x6xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<4x6xf32>
  %c = linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<4x6xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %c : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @consumer_transposes
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b : tensor<4x6xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>)
// CHECK:        math.exp
// CHECK-NEXT:   arith.addf
// CHECK-NOT:  linalg.generic

// A 1-D producer broadcast along the consumer's second loop.
func.func @broadcast_producer(%a: tensor<?xf32>, %b: tensor<?x7xf32>) -> tensor<?x7xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?x7xf32>
  %c = linalg.generic {indexing_maps = [#row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<?xf32>, tensor<?x7xf32>) outs(%e2 : tensor<?x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<?x7xf32>
  return %c : tensor<?x7xf32>
}
// CHECK-LABEL: func.func @broadcast_producer
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b : tensor<?xf32>, tensor<?x7xf32>)
// CHECK:        arith.negf
// CHECK-NEXT:   arith.mulf
// CHECK-NOT:  linalg.generic

// Rank 0: no loops at all.
func.func @rank_zero(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %p = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %c = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%p, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %c : tensor<f32>
}
// CHECK-LABEL: func.func @rank_zero
// CHECK:      linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : tensor<f32>, tensor<f32>)
// CHECK:        arith.addf
// CHECK-NEXT:   arith.mulf
// CHECK-NOT:  linalg.generic

// linalg.index in the producer's body asks for the producer's loops: through
// the consumer's transposition, index 0 becomes index 1 and index 1 index 0.
func.func @indexed_producer(%a: tensor<3x4xi32>) -> tensor<4x3xi32> {
  %e = tensor.empty() : tensor<3x4xi32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<3x4xi32>) outs(%e : tensor<3x4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %s = arith.muli %ii, %jj : i32
    %t = arith.subi %x, %ii : i32
    %r = arith.addi %t, %s : i32
    linalg.yield %r : i32
  } -> tensor<3x4xi32>
  %e2 = tensor.empty() : tensor<4x3xi32>
  %c = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<3x4xi32>) outs(%e2 : tensor<4x3xi32>) {
  ^bb0(%x: i32, %o: i32):
    %k = linalg.index 0 : index
    %kk = arith.index_cast %k : index to i32
    %r = arith.addi %x, %kk : i32
    linalg.yield %r : i32
  } -> tensor<4x3xi32>
  return %c : tensor<4x3xi32>
}
// CHECK-LABEL: func.func @indexed_producer
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:        %[[I:.*]] = linalg.index 1 : index
// CHECK:        %[[J:.*]] = linalg.index 0 : index
// CHECK:        arith.index_cast %[[I]]
// CHECK:        arith.index_cast %[[J]]
// CHECK:        %[[K:.*]] = linalg.index 0 : index
// CHECK-NOT:  linalg.generic

// A consumer with a reduction: the fused op keeps the reduction.
func.func @reducing_consumer(%a: tensor<5x8xf32>, %acc: tensor<5xf32>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<5x8xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<5x8xf32>) outs(%e : tensor<5x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.mulf %x, %x : f32
    linalg.yield %r : f32
  } -> tensor<5x8xf32>
  %c = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%p : tensor<5x8xf32>) outs(%acc : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  return %c : tensor<5xf32>
}
// CHECK-LABEL: func.func @reducing_consumer
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<5x8xf32>) outs(%acc : tensor<5xf32>)
// CHECK:        arith.mulf
// CHECK-NEXT:   arith.addf
// CHECK-NOT:  linalg.generic

// The producer's body reads its init: the init becomes an input.
func.func @producer_reads_init(%a: tensor<6xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<6xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%p : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.sqrt %x : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %c : tensor<6xf32>
}
// CHECK-LABEL: func.func @producer_reads_init
// CHECK:      linalg.generic {{.*}} ins(%a, %init : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[O:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[R:.*]] = arith.addf %[[X]], %[[O]] : f32
// CHECK-NEXT:   math.sqrt %[[R]]
// CHECK-NOT:  linalg.generic

// A splat constant and a linalg.fill are read as scalars.
func.func @constant_and_fill_inputs(%a: tensor<5x3xf32>, %v: f32) -> tensor<5x3xf32> {
  %cst = arith.constant dense<4.0> : tensor<5xf32>
  %e = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.generic {indexing_maps = [#row, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst, %a, %f : tensor<5xf32>, tensor<5x3xf32>, tensor<5x3xf32>) outs(%e : tensor<5x3xf32>) {
  ^bb0(%k: f32, %x: f32, %w: f32, %o: f32):
    %m = arith.mulf %k, %x : f32
    %s = arith.addf %m, %w : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
// CHECK-LABEL: func.func @constant_and_fill_inputs
// CHECK-NOT:  linalg.fill
// CHECK:      %[[C:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a : tensor<5x3xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[C]], %[[X]] : f32
// CHECK-NEXT:   arith.addf %[[M]], %v : f32

// The consumer's only operand indexed by d0 is the producer's result (its
// init is indexed by d1 alone): fused, the producer's result stays as an
// output so that d0 keeps an operand giving its size, as upstream does.
func.func @loop_sized_by_producer(%table: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xi32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%e : tensor<6xi32>) {
  ^bb0(%o: i32):
    %i = linalg.index 0 : index
    %c5 = arith.constant 5 : index
    %j = arith.subi %c5, %i : index
    %w = arith.index_cast %j : index to i32
    linalg.yield %w : i32
  } -> tensor<6xi32>
  %e2 = tensor.empty() : tensor<6xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<6xi32>) outs(%e2 : tensor<6xf32>) {
  ^bb0(%x: i32, %o: f32):
    %k = arith.index_cast %x : i32 to index
    %v = tensor.extract %table[%k] : tensor<6xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32>
  return %q : tensor<6xf32>
}
// CHECK-LABEL: func.func @loop_sized_by_producer
// CHECK:      %{{.*}}, %[[Q:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]} outs(%e, %e2 : tensor<6xi32>, tensor<6xf32>)
// CHECK:        linalg.index 0
// CHECK:        tensor.extract %table
// CHECK:      func.return %[[Q]]
