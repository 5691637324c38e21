// Pairs left as they are, each with the reason `report` prints. The first
// five are seed 004's non-permutation result maps (whose consumers read only
// the elements the producer writes: the rest is undefined).
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{report=true}" 2>&1 | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

func.func @projection(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %proj = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  %use1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%proj : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %use1 : tensor<4xf32>
}

func.func @three_to_two(%a: tensor<4x4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %drop = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<4x4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %use2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%drop : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %use2 : tensor<4x4xf32>
}

func.func @duplication(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %diag = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %use3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%diag : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %use3 : tensor<4x4xf32>
}

func.func @constant_result(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %row0 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  %use4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%row0 : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %use4 : tensor<4x4xf32>
}

func.func @sum_of_dims(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %skew = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0 + d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x4xf32>
  %use5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1, d0)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%skew : tensor<8x4xf32>) outs(%e4 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  return %use5 : tensor<4x4xf32>
}

func.func @reducing_producer(%a: tensor<4x6xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x6xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %use6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %use6 : tensor<4xf32>
}

// On buffers, one op writes what the next reads through memory, not through
// an SSA value: no pair to fuse, and the ops stay as they are.
func.func @buffers(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b : memref<4xf32>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }
  return
}

// Fusing would leave the reduction loop d1 without an operand giving its
// size: only the fused operand had it.
func.func @lost_loop_size(%a: tensor<4x6xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %idx = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<4x6xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %f = arith.sitofp %jj : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x6xf32>
  %total = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%idx : tensor<4x6xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %total : tensor<4xf32>
}

// Another user of the producer comes before the consumer: the fused op,
// placed at the consumer, could not serve it.
func.func @user_in_between(%a: tensor<4xf32>, %wide: tensor<8xf32>) -> (tensor<4xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %early = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %between = tensor.insert_slice %early into %wide[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %part = tensor.extract_slice %between[1] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %late = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%early, %part : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %late, %between : tensor<4xf32>, tensor<8xf32>
}

// The consumer reads its init, which the producer computes: not an input.
func.func @producer_is_init(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %upd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%b : tensor<4xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %upd : tensor<4xf32>
}

// CHECK-DAG: linalg-fuse-elementwise-ext: @projection: %proj into %use1 not fused: the consumer's map for the operand has 1 results, the producer has 2 loops
// CHECK-DAG: linalg-fuse-elementwise-ext: @three_to_two: %drop into %use2 not fused: the consumer's map for the operand has 2 results, the producer has 3 loops
// CHECK-DAG: linalg-fuse-elementwise-ext: @duplication: %diag into %use3 not fused: the producer's result map is not a permutation ((d0, d1) -> (d0, d0))
// CHECK-DAG: linalg-fuse-elementwise-ext: @constant_result: %row0 into %use4 not fused: the producer's result map is not a permutation ((d0, d1) -> (0, d1))
// CHECK-DAG: linalg-fuse-elementwise-ext: @sum_of_dims: %skew into %use5 not fused: the producer's result map is not a permutation ((d0, d1) -> ((d0 + d1), d0))
// CHECK-DAG: linalg-fuse-elementwise-ext: @reducing_producer: %sum into %use6 not fused: the producer has reduction iterators
// CHECK-DAG: linalg-fuse-elementwise-ext: @lost_loop_size: %idx into %total not fused: fusing would leave loop d1 of the consumer without an operand that gives its size
// CHECK-NOT: @buffers
// CHECK-DAG: linalg-fuse-elementwise-ext: @user_in_between: %early into %late not fused: the producer has another user before the consumer
// The IR is unchanged: every pair is still there.
// CHECK-LABEL: func.func @projection
// CHECK:       %proj = linalg.generic
// CHECK:       %use1 = linalg.generic
// CHECK-LABEL: func.func @three_to_two
// CHECK:       %drop = linalg.generic
// CHECK:       %use2 = linalg.generic
// CHECK-LABEL: func.func @duplication
// CHECK:       %diag = linalg.generic
// CHECK:       %use3 = linalg.generic
// CHECK-LABEL: func.func @constant_result
// CHECK:       %row0 = linalg.generic
// CHECK:       %use4 = linalg.generic
// CHECK-LABEL: func.func @sum_of_dims
// CHECK:       %skew = linalg.generic
// CHECK:       %use5 = linalg.generic
// CHECK-LABEL: func.func @reducing_producer
// CHECK:       %sum = linalg.generic
// CHECK:       %use6 = linalg.generic
// CHECK-LABEL: func.func @buffers
// CHECK:       linalg.generic {{.*}} outs(%b : memref<4xf32>)
// CHECK:       math.exp
// CHECK-LABEL: func.func @lost_loop_size
// CHECK:       %idx = linalg.generic
// CHECK:       %total = linalg.generic
// CHECK-LABEL: func.func @user_in_between
// CHECK:       %early = linalg.generic
// CHECK:       %late = linalg.generic
// CHECK-LABEL: func.func @producer_is_init
// CHECK:       %acc = linalg.generic
// CHECK:       %upd = linalg.generic
