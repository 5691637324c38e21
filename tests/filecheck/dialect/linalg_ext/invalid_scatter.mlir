// Every verifier rule of scatter: indices [B..., D] with D static, updates
// [B..., W...], src [S0...S(D-1), W...], and the combiner region.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @one_input(%i: tensor<4x1xi64>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i : tensor<4x1xi64>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected 2 input operands (indices, updates), got 1

// -----

func.func @two_outputs(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r:2 = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s, %s : tensor<10xf32>, tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>, tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected 1 output operand (src), got 2

// -----

func.func @float_indices(%i: tensor<4x1xf32>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xf32>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected indices element type to be an integer or index type, got f32

// -----

func.func @updates_element_type(%i: tensor<4x1xi64>, %u: tensor<4xf16>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf16>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f16):
    linalg_ext.yield %a : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected updates element type to match src element type f32, got f16

// -----

func.func @rank0_indices(%i: tensor<i64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<i64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected indices to have rank >= 1, got tensor<i64>

// -----

func.func @dynamic_index_depth(%i: tensor<4x?xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x?xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected the last dimension of indices to be static, got tensor<4x?xi64>

// -----

func.func @updates_lack_batch_dims(%i: tensor<4x3x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x3x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected updates to have rank >= 2, got tensor<4xf32>

// -----

func.func @batch_mismatch(%i: tensor<4x1xi64>, %u: tensor<5x8xf32>, %s: tensor<10x8xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<5x8xf32>) outs(%s : tensor<10x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10x8xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected updates to start with the batch dimensions of indices [4], got tensor<5x8xf32>

// -----

func.func @src_rank(%i: tensor<4x2xi64>, %u: tensor<4x8xf32>, %s: tensor<10x8xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x2xi64>, tensor<4x8xf32>) outs(%s : tensor<10x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  } -> tensor<10x8xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected src to have rank 3 (index depth 2 + window rank 1), got tensor<10x8xf32>

// -----

func.func @window_mismatch(%i: memref<4x1xi32>, %u: memref<4x8xf32>, %s: memref<10x9xf32>) {
  linalg_ext.scatter ins(%i, %u : memref<4x1xi32>, memref<4x8xf32>) outs(%s : memref<10x9xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %b : f32
  }
  return
}
// CHECK: 'linalg_ext.scatter' op expected src to end with the window dimensions of updates [8], got memref<10x9xf32>

// -----

func.func @region_first_argument_is_src(%i: tensor<4x1xi64>, %u: tensor<4xi32>, %s: tensor<10xi32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xi32>) outs(%s : tensor<10xi32>) {
  ^bb0(%a: i64, %b: i32):
    linalg_ext.yield %b : i32
  } -> tensor<10xi32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected region argument #0 to be of type i32, got i64

// -----

func.func @region_argument_type(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: i64):
    linalg_ext.yield %a : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected region argument #1 to be of type f32, got i64

// -----

func.func @region_arity(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    linalg_ext.yield %a : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected the region to take 2 arguments (src element, update element), got 3

// -----

func.func @yield_nothing(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected the region to yield 1 value (new src element), got 0

// -----

func.func @yield_type(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected yielded value #0 to be of type f32, got i1

// -----

func.func @wrong_terminator(%i: tensor<4x1xi64>, %u: tensor<4xf32>, %s: tensor<10xf32>) {
  %r = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4xf32>) outs(%s : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %b : f32
  } -> tensor<10xf32>
  return
}
// CHECK: 'linalg_ext.scatter' op expected the region to end with linalg_ext.yield
