// Inputs of the kinds upstream's own test of `--linalg-fuse-elementwise-ops`
// (fusion-elementwise-ops.mlir) covers, written afresh: chains on dynamic
// shapes, scalar operands, transposes on either side, broadcasts, rank 0,
// splat constants and fills read as scalars, linalg.index on either side,
// reductions in the consumer, calls in bodies, multi-result producers and the
// pairs that must stay apart. tests/unit/test_fuse_elementwise_upstream.py
// runs mlir-opt-22 on them too and compares values and op counts.
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s

#i2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
#i3 = affine_map<(i, j, k) -> (i, j, k)>
#s3 = affine_map<(i, j, k) -> ()>

// Two elementwise ops over a dynamic 3-D shape; the consumer reads the
// producer as its second input.
func.func @max_then_sub(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>, %c: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %a, %c2 : tensor<?x?x?xf32>
  %e = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32>
  %hi = linalg.generic {indexing_maps = [#i3, #i3, #i3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %b : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.maximumf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<?x?x?xf32>
  %diff = linalg.generic {indexing_maps = [#i3, #i3, #i3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %hi : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  return %diff : tensor<?x?x?xf32>
}
// CHECK-LABEL: func.func @max_then_sub
// CHECK:      %[[R:.*]] = linalg.generic {{.*}} ins(%a, %b, %c : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%e : tensor<?x?x?xf32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   %[[S:.*]] = arith.subf %[[Z]], %[[M]] : f32
// CHECK-NEXT:   linalg.yield %[[S]] : f32
// CHECK:      func.return %[[R]]

// Scalar (non-tensor) operands on both sides keep their `()` maps.
func.func @scalar_scale_shift(%a: tensor<2x3x4xf32>, %scale: f32, %shift: f32) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %scaled = linalg.generic {indexing_maps = [#s3, #i3, #i3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scale, %a : f32, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%k: f32, %x: f32, %o: f32):
    %m = arith.mulf %k, %x : f32
    linalg.yield %m : f32
  } -> tensor<2x3x4xf32>
  %shifted = linalg.generic {indexing_maps = [#s3, #i3, #i3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%shift, %scaled : f32, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%k: f32, %x: f32, %o: f32):
    %s = arith.subf %x, %k : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %shifted : tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @scalar_scale_shift
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%scale, %a, %shift : f32, tensor<2x3x4xf32>, f32)
// CHECK-NEXT: ^bb0(%[[K:.*]]: f32, %[[X:.*]]: f32, %[[H:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[K]], %[[X]] : f32
// CHECK-NEXT:   arith.subf %[[M]], %[[H]] : f32
// CHECK-NOT:  linalg.generic

// The producer reads one of its inputs transposed; the consumer is plain.
func.func @producer_reads_transposed(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>, %c: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xi32>
  %m = tensor.dim %a, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n, %m) : tensor<?x?xi32>
  %p = linalg.generic {indexing_maps = [#i2, #t2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xi32>, tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.subi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %q = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p, %c : tensor<?x?xi32>, tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.muli %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %q : tensor<?x?xi32>
}
// CHECK-LABEL: func.func @producer_reads_transposed
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b, %c : tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>)
// CHECK:        %[[D:.*]] = arith.subi
// CHECK-NEXT:   arith.muli %[[D]]
// CHECK-NOT:  linalg.generic

// The consumer reads the producer transposed, and writes a tensor of the
// transposed shape: the producer's input map becomes (d1, d0).
func.func @consumer_reads_transposed(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %p = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.absf %x : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %et = tensor.empty(%m, %n) : tensor<?x?xf32>
  %q = linalg.generic {indexing_maps = [#t2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%et : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.divf %y, %x : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %q : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @consumer_reads_transposed
// CHECK-NOT:  %e = tensor.empty
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%et : tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   %[[A:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:   arith.divf %[[Y]], %[[A]] : f32
// CHECK-NOT:  linalg.generic

// A 1-D producer broadcast along the consumer's first loop (read as d1).
func.func @column_broadcast(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.minimumf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<3x?xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p, %c : tensor<?xf32>, tensor<3x?xf32>) outs(%e2 : tensor<3x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<3x?xf32>
  return %q : tensor<3x?xf32>
}
// CHECK-LABEL: func.func @column_broadcast
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b, %c : tensor<?xf32>, tensor<?xf32>, tensor<3x?xf32>) outs(%e2 : tensor<3x?xf32>)
// CHECK:        %[[M:.*]] = arith.minimumf
// CHECK-NEXT:   arith.addf %[[M]]
// CHECK-NOT:  linalg.generic

// Three rank-0 ops in a chain fuse into one.
func.func @rank_zero_chain(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>) -> tensor<i32> {
  %e = tensor.empty() : tensor<i32>
  %p = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a, %b : tensor<i32>, tensor<i32>) outs(%e : tensor<i32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.muli %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  %q = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%p : tensor<i32>) outs(%e : tensor<i32>) {
  ^bb0(%x: i32, %o: i32):
    %r = arith.addi %x, %x : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  %s = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%c, %q : tensor<i32>, tensor<i32>) outs(%e : tensor<i32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.subi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  return %s : tensor<i32>
}
// CHECK-LABEL: func.func @rank_zero_chain
// CHECK:      linalg.generic {{.*}} iterator_types = []} ins(%a, %b, %c : tensor<i32>, tensor<i32>, tensor<i32>) outs(%e : tensor<i32>)
// CHECK:        %[[P:.*]] = arith.muli
// CHECK-NEXT:   %[[Q:.*]] = arith.addi %[[P]], %[[P]] : i32
// CHECK-NEXT:   arith.subi %{{.*}}, %[[Q]] : i32
// CHECK-NOT:  linalg.generic

// A splat constant broadcast along the middle loop is read as a scalar.
func.func @splat_row_constant(%a: tensor<?x4x?xi32>) -> tensor<?x4x?xi32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %a, %c0 : tensor<?x4x?xi32>
  %k = tensor.dim %a, %c2 : tensor<?x4x?xi32>
  %seven = arith.constant dense<7> : tensor<4xi32>
  %e = tensor.empty(%n, %k) : tensor<?x4x?xi32>
  %r = linalg.generic {indexing_maps = [#i3, affine_map<(i, j, k) -> (j)>, #i3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a, %seven : tensor<?x4x?xi32>, tensor<4xi32>) outs(%e : tensor<?x4x?xi32>) {
  ^bb0(%x: i32, %s: i32, %o: i32):
    %m = arith.muli %s, %x : i32
    linalg.yield %m : i32
  } -> tensor<?x4x?xi32>
  return %r : tensor<?x4x?xi32>
}
// CHECK-LABEL: func.func @splat_row_constant
// CHECK-NOT:  dense<7>
// CHECK:      %[[C:.*]] = arith.constant 7 : i32
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%a : tensor<?x4x?xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:   arith.muli %[[X]], %[[C]] : i32

// A rank-0 splat constant, read through a `()` map, is read as a scalar.
func.func @splat_rank_zero_constant(%a: tensor<3x?xf32>) -> tensor<3x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<3x?xf32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %e = tensor.empty(%n) : tensor<3x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%half, %a : tensor<f32>, tensor<3x?xf32>) outs(%e : tensor<3x?xf32>) {
  ^bb0(%h: f32, %x: f32, %o: f32):
    %m = arith.subf %x, %h : f32
    linalg.yield %m : f32
  } -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
// CHECK-LABEL: func.func @splat_rank_zero_constant
// CHECK-NOT:  tensor<f32>
// CHECK:      %[[C:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: linalg.generic {{.*}} ins(%a : tensor<3x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.subf %[[X]], %[[C]] : f32

// A splat constant of the op's own shape.
func.func @splat_same_shape(%a: tensor<6xi32>) -> tensor<6xi32> {
  %three = arith.constant dense<3> : tensor<6xi32>
  %e = tensor.empty() : tensor<6xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%three, %a : tensor<6xi32>, tensor<6xi32>) outs(%e : tensor<6xi32>) {
  ^bb0(%t: i32, %x: i32, %o: i32):
    %m = arith.shli %x, %t : i32
    linalg.yield %m : i32
  } -> tensor<6xi32>
  return %r : tensor<6xi32>
}
// CHECK-LABEL: func.func @splat_same_shape
// CHECK-DAG:  %[[E:.*]] = tensor.empty() : tensor<6xi32>
// CHECK-DAG:  %[[C:.*]] = arith.constant 3 : i32
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], {{.*}} ins(%a : tensor<6xi32>) outs(%[[E]] : tensor<6xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:   arith.shli %[[X]], %[[C]] : i32

// A plain producer into a consumer that reads its loop indices: the
// consumer's linalg.index ops are the fused op's.
func.func @plain_into_indexed(%a: tensor<?x?xi32>, %b: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xi32>
  %m = tensor.dim %a, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n, %m) : tensor<?x?xi32>
  %p = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xi32>, tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.maxsi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %q = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ij = arith.muli %i, %j : index
    %w = arith.index_cast %ij : index to i32
    %r = arith.muli %x, %w : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %q : tensor<?x?xi32>
}
// CHECK-LABEL: func.func @plain_into_indexed
// CHECK:      linalg.generic {{.*}} ins(%a, %b : tensor<?x?xi32>, tensor<?x?xi32>) outs(%e : tensor<?x?xi32>)
// CHECK:        %[[M:.*]] = arith.maxsi
// CHECK-NEXT:   %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[IJ:.*]] = arith.muli %[[I]], %[[J]] : index
// CHECK-NEXT:   %[[W:.*]] = arith.index_cast %[[IJ]] : index to i32
// CHECK-NEXT:   arith.muli %[[M]], %[[W]] : i32
// CHECK-NOT:  linalg.generic

// A producer that reads its loop indices into a plain consumer that also
// reads the producer's input: the input is passed once.
func.func @indexed_into_plain(%a: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xi32>
  %m = tensor.dim %a, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n, %m) : tensor<?x?xi32>
  %p = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %o: i32):
    %j = linalg.index 1 : index
    %w = arith.index_cast %j : index to i32
    %r = arith.muli %x, %w : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %q = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %p : tensor<?x?xi32>, tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.subi %y, %x : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %q : tensor<?x?xi32>
}
// CHECK-LABEL: func.func @indexed_into_plain
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[W:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:   %[[P:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK-NEXT:   arith.subi %[[P]], %[[X]] : i32
// CHECK-NOT:  linalg.generic

// Both read their indices, and the consumer reads the producer transposed:
// the producer's index 0 is the fused op's index 1.
func.func @indexed_both_transposed(%a: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xi32>
  %m = tensor.dim %a, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%m, %n) : tensor<?x?xi32>
  %p = linalg.generic {indexing_maps = [#t2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xi32>) outs(%e : tensor<?x?xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %w = arith.index_cast %i : index to i32
    %r = arith.addi %x, %w : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xi32>
  %q = linalg.generic {indexing_maps = [#t2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<?x?xi32>) outs(%e2 : tensor<?x?xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %d = arith.subi %i, %j : index
    %w = arith.index_cast %d : index to i32
    %r = arith.muli %x, %w : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %q : tensor<?x?xi32>
}
// CHECK-LABEL: func.func @indexed_both_transposed
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a : tensor<?x?xi32>) outs(%e2 : tensor<?x?xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:   %[[PI:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[PW:.*]] = arith.index_cast %[[PI]] : index to i32
// CHECK-NEXT:   %[[P:.*]] = arith.addi %[[X]], %[[PW]] : i32
// CHECK-NEXT:   %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %[[D:.*]] = arith.subi %[[I]], %[[J]] : index
// CHECK-NEXT:   %[[W:.*]] = arith.index_cast %[[D]] : index to i32
// CHECK-NEXT:   arith.muli %[[P]], %[[W]] : i32
// CHECK-NOT:  linalg.generic

// A 1-D producer reading its index, broadcast along the consumer's second
// loop: its index 0 stays the fused op's index 0.
func.func @indexed_row_broadcast(%a: tensor<?xi32>, %b: tensor<?x5xi32>) -> tensor<?x5xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%x: i32, %o: i32):
    %i = linalg.index 0 : index
    %w = arith.index_cast %i : index to i32
    %r = arith.muli %x, %w : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  %e2 = tensor.empty(%n) : tensor<?x5xi32>
  %q = linalg.generic {indexing_maps = [#i2, affine_map<(d0, d1) -> (d0)>, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%b, %p : tensor<?x5xi32>, tensor<?xi32>) outs(%e2 : tensor<?x5xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.subi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<?x5xi32>
  return %q : tensor<?x5xi32>
}
// CHECK-LABEL: func.func @indexed_row_broadcast
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a, %b : tensor<?xi32>, tensor<?x5xi32>) outs(%e2 : tensor<?x5xi32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:   %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[W:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:   %[[P:.*]] = arith.muli %[[X]], %[[W]] : i32
// CHECK-NEXT:   arith.subi %[[Y]], %[[P]] : i32
// CHECK-NOT:  linalg.generic

// A rank-0 producer that gathers from a captured tensor, broadcast into a 1-D
// consumer whose other input is a splat constant.
func.func @rank_zero_gather(%table: tensor<4x2xf32>, %pos: tensor<i32>) -> tensor<7xf32> {
  %c1 = arith.constant 1 : index
  %two = arith.constant dense<2.0> : tensor<7xf32>
  %e = tensor.empty() : tensor<f32>
  %g = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%pos : tensor<i32>) outs(%e : tensor<f32>) {
  ^bb0(%p: i32, %o: f32):
    %c3 = arith.constant 3 : i32
    %pp = arith.andi %p, %c3 : i32
    %i = arith.index_cast %pp : i32 to index
    %v = tensor.extract %table[%i, %c1] : tensor<4x2xf32>
    linalg.yield %v : f32
  } -> tensor<f32>
  %e2 = tensor.empty() : tensor<7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%g, %two : tensor<f32>, tensor<7xf32>) outs(%e2 : tensor<7xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %m = arith.addf %x, %t : f32
    linalg.yield %m : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}
// CHECK-LABEL: func.func @rank_zero_gather
// CHECK:      %[[C:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%pos : tensor<i32>) outs(%e2 : tensor<7xf32>)
// CHECK:        %[[V:.*]] = tensor.extract %table
// CHECK-NEXT:   arith.addf %[[V]], %[[C]] : f32
// CHECK-NOT:  linalg.generic

// The consumer is a reduction over a unit-dim operand (maps with a constant
// 0): the producer's maps compose through it.
func.func @reduction_consumer_unit_dim(%a: tensor<1x9xf32>, %b: tensor<1x9xf32>, %acc: tensor<1xf32>) -> tensor<1xf32> {
  %e = tensor.empty() : tensor<1x9xf32>
  %p = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<1x9xf32>, tensor<1x9xf32>) outs(%e : tensor<1x9xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<1x9xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
      ins(%p : tensor<1x9xf32>) outs(%acc : tensor<1xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %s : tensor<1xf32>
}
// CHECK-LABEL: func.func @reduction_consumer_unit_dim
// CHECK-NEXT: %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]} ins(%a, %b : tensor<1x9xf32>, tensor<1x9xf32>) outs(%acc : tensor<1xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:   %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   arith.maximumf %[[M]], %[[O]] : f32
// CHECK:      func.return %[[S]]

// A producer with no inputs that yields a value captured from outside (a
// fill written as a generic), on a dynamic shape.
func.func @captured_scalar_fill(%a: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %c0 = arith.constant 0 : index
  %quarter = arith.constant 2.5e-01 : f32
  %n = tensor.dim %a, %c0 : tensor<?x2xf32>
  %e = tensor.empty(%n) : tensor<?x2xf32>
  %k = linalg.generic {indexing_maps = [#i2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x2xf32>) {
  ^bb0(%o: f32):
    linalg.yield %quarter : f32
  } -> tensor<?x2xf32>
  %e2 = tensor.empty(%n) : tensor<?x2xf32>
  %r = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%k, %a : tensor<?x2xf32>, tensor<?x2xf32>) outs(%e2 : tensor<?x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.addf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
// CHECK-LABEL: func.func @captured_scalar_fill
// CHECK:      %[[Q:.*]] = arith.constant 2.500000e-01 : f32
// CHECK:      linalg.generic {{.*}} ins(%a : tensor<?x2xf32>) outs(%e2 : tensor<?x2xf32>)
// CHECK-NEXT: ^bb0(%[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.addf %[[Q]], %[[Y]] : f32
// CHECK-NOT:  linalg.generic

// Bodies that call functions, a producer that only has an init (which it
// reads) and a consumer that reads its init too.
func.func @twice(%x: f32) -> f32 {
  %r = arith.addf %x, %x : f32
  return %r : f32
}

func.func @blend(%x: f32, %y: i32) -> i32 {
  %t = arith.fptosi %x : f32 to i32
  %r = arith.addi %t, %y : i32
  return %r : i32
}

func.func @calls_and_inits(%a: tensor<2x5xf32>, %b: tensor<2x5xi32>) -> tensor<2x5xi32> {
  %p = linalg.generic {indexing_maps = [#i2], iterator_types = ["parallel", "parallel"]}
      outs(%a : tensor<2x5xf32>) {
  ^bb0(%o: f32):
    %r = func.call @twice(%o) : (f32) -> f32
    linalg.yield %r : f32
  } -> tensor<2x5xf32>
  %q = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<2x5xf32>) outs(%b : tensor<2x5xi32>) {
  ^bb0(%x: f32, %o: i32):
    %r = func.call @blend(%x, %o) : (f32, i32) -> i32
    linalg.yield %r : i32
  } -> tensor<2x5xi32>
  return %q : tensor<2x5xi32>
}
// CHECK-LABEL: func.func @calls_and_inits
// CHECK-NEXT: %[[Q:.*]] = linalg.generic {{.*}} ins(%a : tensor<2x5xf32>) outs(%b : tensor<2x5xi32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: i32):
// CHECK-NEXT:   %[[T:.*]] = func.call @twice(%[[A]]) : (f32) -> f32
// CHECK-NEXT:   %[[R:.*]] = func.call @blend(%[[T]], %[[B]]) : (f32, i32) -> i32
// CHECK-NEXT:   linalg.yield %[[R]] : i32
// CHECK:      func.return %[[Q]]

// A splat constant is the only operand that gives a reduction's loop sizes:
// it stays an input of the op.
func.func @splat_feeds_reduction() -> tensor<4xi32> {
  %ones = arith.constant dense<1> : tensor<4x3xi32>
  %e = tensor.empty() : tensor<4xi32>
  %z = arith.constant 0 : i32
  %init = linalg.fill ins(%z : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#i2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%ones : tensor<4x3xi32>) outs(%init : tensor<4xi32>) {
  ^bb0(%x: i32, %o: i32):
    %s = arith.addi %x, %o : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}
// CHECK-LABEL: func.func @splat_feeds_reduction
// CHECK:      %[[ONES:.*]] = arith.constant dense<1> : tensor<4x3xi32>
// CHECK:      %init = linalg.fill
// CHECK:      linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[ONES]] : tensor<4x3xi32>) outs(%init : tensor<4xi32>)

// Both ops use a tensor they do not read as their init: the inits become
// tensor.empty ops sized like %a, and the two fuse.
func.func @outs_only_shape(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %p = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x3xf32>) outs(%a : tensor<?x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<?x3xf32>
  %q = linalg.generic {indexing_maps = [#i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<?x3xf32>) outs(%p : tensor<?x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<?x3xf32>
  return %q : tensor<?x3xf32>
}
// CHECK-LABEL: func.func @outs_only_shape
// CHECK:      %[[N:.*]] = tensor.dim %a, %{{.*}} : tensor<?x3xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%a : tensor<?x3xf32>) outs(%[[E]] : tensor<?x3xf32>)
// CHECK:        math.exp
// CHECK-NEXT:   arith.negf
// CHECK-NOT:  linalg.generic

// Scalar constants as operands of a two-result op (one result is just a
// constant operand).
func.func @scalar_constant_operands(%a: tensor<?x?xi32>) -> (tensor<?x?xi32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %five = arith.constant 5 : i32
  %three = arith.constant 3.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xi32>
  %m = tensor.dim %a, %c1 : tensor<?x?xi32>
  %e = tensor.empty(%n, %m) : tensor<?x?xi32>
  %f = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, #i2, affine_map<(d0, d1) -> ()>, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%five, %a, %three : i32, tensor<?x?xi32>, f32) outs(%e, %f : tensor<?x?xi32>, tensor<?x?xf32>) {
  ^bb0(%k: i32, %x: i32, %p: f32, %o1: i32, %o2: f32):
    %s = arith.remsi %x, %k : i32
    linalg.yield %s, %p : i32, f32
  } -> (tensor<?x?xi32>, tensor<?x?xf32>)
  return %r#0, %r#1 : tensor<?x?xi32>, tensor<?x?xf32>
}
// CHECK-LABEL: func.func @scalar_constant_operands
// CHECK:      %[[R:.*]], %[[S:.*]] = linalg.generic {{.*}} outs(%e, %f : tensor<?x?xi32>, tensor<?x?xf32>)
// CHECK:        arith.remsi
// CHECK:      func.return %[[R]], %[[S]]

// Not fused: a broadcast of a rank-0 tensor into a reduction that reads it
// transposed; once fused, nothing would give the size of the reduced loop.
func.func @broadcast_into_transposed_reduction(%a: tensor<f32>, %n: index) -> tensor<?xf32> {
  %lowest = arith.constant -1.0e+30 : f32
  %e = tensor.empty(%n, %n) : tensor<?x?xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<f32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#t2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%b : tensor<?x?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// CHECK-LABEL: func.func @broadcast_into_transposed_reduction
// CHECK:      %b = linalg.generic
// CHECK:      %init = linalg.fill
// CHECK:      %r = linalg.generic {{.*}} ins(%b : tensor<?x?xf32>) outs(%init : tensor<?xf32>)

// A linalg.fill input is read as its scalar.
func.func @fill_input(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %f = linalg.fill ins(%two : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#i2, #i2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%f, %a : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%t: f32, %x: f32, %o: f32):
    %s = arith.mulf %x, %t : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @fill_input
// CHECK-NOT:  linalg.fill
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%a : tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:   arith.mulf %[[X]], %two : f32

// Every input is a fill (one read transposed): no input is left.
func.func @fills_only(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x1 = arith.constant 9.0 : f32
  %x2 = arith.constant 4.0 : f32
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %f1 = linalg.fill ins(%x1 : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %et = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f2 = linalg.fill ins(%x2 : f32) outs(%et : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#i2, #t2, #i2], iterator_types = ["parallel", "parallel"]}
      ins(%f1, %f2 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %s = arith.subf %u, %v : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @fills_only
// CHECK-NOT:  linalg.fill
// CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<?x?xf32>)
// CHECK-NOT:  linalg.generic

// A two-result producer, one result unused, one input passed twice; the
// consumer reads the other result and its own init.
func.func @multi_result_one_used(%a: tensor<f32>, %b: tensor<f32>, %acc: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %e2 = tensor.empty() : tensor<f32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a, %b, %b : tensor<f32>, tensor<f32>, tensor<f32>) outs(%e, %e2 : tensor<f32>, tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o1: f32, %o2: f32):
    %s = arith.mulf %x, %y : f32
    %t = arith.subf %s, %z : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %q = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%r#1, %b : tensor<f32>, tensor<f32>) outs(%acc : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %y : f32
    %t = arith.addf %s, %o : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %q : tensor<f32>
}
// CHECK-LABEL: func.func @multi_result_one_used
// CHECK-NEXT: %[[Q:.*]] = linalg.generic {{.*}} ins(%a, %b : tensor<f32>, tensor<f32>) outs(%acc : tensor<f32>) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[O:.*]]: f32):
// CHECK-NEXT:   %[[S:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:   %[[T:.*]] = arith.subf %[[S]], %[[Y]] : f32
// CHECK-NEXT:   %[[U:.*]] = arith.mulf %[[T]], %[[Y]] : f32
// CHECK-NEXT:   %[[V:.*]] = arith.addf %[[U]], %[[O]] : f32
// CHECK-NEXT:   linalg.yield %[[V]] : f32
// CHECK-NEXT: } -> tensor<f32>
// CHECK-NEXT: func.return %[[Q]]
