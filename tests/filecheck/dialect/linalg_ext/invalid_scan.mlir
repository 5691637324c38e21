// Every verifier rule of scan, including its region, each with its message.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @two_inputs(%x: tensor<8xi32>, %c: tensor<i32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x, %x : tensor<8xi32>, tensor<8xi32>) outs(%x, %c : tensor<8xi32>, tensor<i32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<8xi32>, tensor<i32>
  return
}
// CHECK: 'linalg_ext.scan' op expected 1 input operand (input), got 2

// -----

func.func @no_accumulator(%x: tensor<8xi32>) {
  %r = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xi32>) outs(%x : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<8xi32>
  return
}
// CHECK: 'linalg_ext.scan' op expected 2 output operands (output, accumulator), got 1

// -----

func.func @rank0(%x: tensor<i32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<i32>) outs(%x, %x : tensor<i32>, tensor<i32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<i32>, tensor<i32>
  return
}
// CHECK: 'linalg_ext.scan' op expected input to have rank >= 1, got tensor<i32>

// -----

func.func @dimension_out_of_range(%x: tensor<8x2xi32>, %c: tensor<8xi32>) {
  %r:2 = linalg_ext.scan dimension(3) inclusive(true) ins(%x : tensor<8x2xi32>) outs(%x, %c : tensor<8x2xi32>, tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<8x2xi32>, tensor<8xi32>
  return
}
// CHECK: 'linalg_ext.scan' op expected dimension to be in [0, 2), got 3

// -----

func.func @output_element_type(%x: tensor<8xi32>, %o: tensor<8xi64>, %c: tensor<i32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xi32>) outs(%o, %c : tensor<8xi64>, tensor<i32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<8xi64>, tensor<i32>
  return
}
// CHECK: 'linalg_ext.scan' op expected output element type to match input element type i32, got i64

// -----

func.func @accumulator_element_type(%x: tensor<8xi32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xi32>) outs(%x, %c : tensor<8xi32>, tensor<f32>) {
  ^bb0(%a: i32, %b: i32):
    linalg_ext.yield %a : i32
  } -> tensor<8xi32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected accumulator element type to match input element type i32, got f32

// -----

func.func @output_shape(%x: memref<8x3xf32>, %o: memref<8x4xf32>, %c: memref<3xf32>) {
  linalg_ext.scan dimension(0) inclusive(false) ins(%x : memref<8x3xf32>) outs(%o, %c : memref<8x4xf32>, memref<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  }
  return
}
// CHECK: 'linalg_ext.scan' op expected output shape to be compatible with [8, 3], got memref<8x4xf32>

// -----

func.func @accumulator_rank(%x: tensor<8x3xf32>, %c: tensor<8x3xf32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8x3xf32>) outs(%x, %c : tensor<8x3xf32>, tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<8x3xf32>, tensor<8x3xf32>
  return
}
// CHECK: 'linalg_ext.scan' op expected accumulator to have rank 1, got tensor<8x3xf32>

// -----

func.func @accumulator_keeps_scanned_dim(%x: tensor<8x3xf32>, %c: tensor<8xf32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8x3xf32>) outs(%x, %c : tensor<8x3xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<8x3xf32>, tensor<8xf32>
  return
}
// CHECK: 'linalg_ext.scan' op expected accumulator shape to be compatible with [3], got tensor<8xf32>

// -----

func.func @empty_region(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected a region with one block, got 0

// -----

func.func @region_arity(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32):
    linalg_ext.yield %a : f32
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected the region to take 2 arguments (running value, element), got 1

// -----

func.func @region_argument_type(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f64):
    linalg_ext.yield %a : f32
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected region argument #1 to be of type f32, got f64

// -----

func.func @wrong_terminator(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected the region to end with linalg_ext.yield

// -----

func.func @yields_two(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a, %b : f32, f32
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected the region to yield 1 value (next running value), got 2

// -----

func.func @yield_type(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %t = arith.truncf %a : f32 to f16
    linalg_ext.yield %t : f16
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected yielded value #0 to be of type f32, got f16

// -----

func.func @output_rank(%x: tensor<8x3xf32>, %o: tensor<24xf32>, %c: tensor<3xf32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8x3xf32>) outs(%o, %c : tensor<24xf32>, tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<24xf32>, tensor<3xf32>
  return
}
// CHECK: 'linalg_ext.scan' op expected output to have rank 2, got tensor<24xf32>

// -----

func.func @accumulator_disagrees_with_output_under_dynamic_input(%x: tensor<?x?xf32>, %o: tensor<5x3xf32>, %c: tensor<4xf32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<?x?xf32>) outs(%o, %c : tensor<5x3xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<5x3xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.scan' op expected accumulator shape to be compatible with [3], got tensor<4xf32>

// -----

func.func @two_blocks(%x: tensor<8xf32>, %c: tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<8xf32>) outs(%x, %c : tensor<8xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  ^bb1(%d: f32, %e: f32):
    linalg_ext.yield %d : f32
  } -> tensor<8xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.scan' op expected a region with one block, got 2
