// Every verifier rule of diag, alias and yield, each with its message.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @diag_two_inputs(%v: tensor<4xf32>, %o: tensor<4x4xf32>) {
  %r = linalg_ext.diag ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4x4xf32>) : tensor<4x4xf32>
  return
}
// CHECK: 'linalg_ext.diag' op expected 1 input operand (input), got 2

// -----

func.func @diag_no_output(%v: memref<4xf32>) {
  linalg_ext.diag ins(%v : memref<4xf32>)
  return
}
// CHECK: 'linalg_ext.diag' op expected 1 output operand (output), got 0

// -----

func.func @diag_rank0_input(%v: tensor<f32>, %o: tensor<1xf32>) {
  %r = linalg_ext.diag ins(%v : tensor<f32>) outs(%o : tensor<1xf32>) : tensor<1xf32>
  return
}
// CHECK: 'linalg_ext.diag' op expected input to have rank >= 1, got tensor<f32>

// -----

func.func @diag_element_type(%v: tensor<4xf32>, %o: tensor<4x4xi32>) {
  %r = linalg_ext.diag ins(%v : tensor<4xf32>) outs(%o : tensor<4x4xi32>) : tensor<4x4xi32>
  return
}
// CHECK: 'linalg_ext.diag' op expected output element type to match input element type f32, got i32

// -----

func.func @diag_output_rank(%v: tensor<4xf32>, %o: tensor<4xf32>) {
  %r = linalg_ext.diag ins(%v : tensor<4xf32>) outs(%o : tensor<4xf32>) : tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.diag' op expected output to have rank 2, got tensor<4xf32>

// -----

func.func @diag_not_square(%v: tensor<2x4xf32>, %o: tensor<2x4x5xf32>) {
  %r = linalg_ext.diag ins(%v : tensor<2x4xf32>) outs(%o : tensor<2x4x5xf32>) : tensor<2x4x5xf32>
  return
}
// CHECK: 'linalg_ext.diag' op expected output shape to be compatible with [2, 4, 4], got tensor<2x4x5xf32>

// -----

func.func @diag_batch_mismatch(%v: memref<2x4xf32>, %o: memref<3x4x4xf32>) {
  linalg_ext.diag ins(%v : memref<2x4xf32>) outs(%o : memref<3x4x4xf32>)
  return
}
// CHECK: 'linalg_ext.diag' op expected output shape to be compatible with [2, 4, 4], got memref<3x4x4xf32>

// -----

func.func @alias_type_changes(%x: f32) {
  %a = linalg_ext.alias(%x : f32) : f64
  return
}
// CHECK: 'linalg_ext.alias' op expected result type to match operand type f32, got f64

// -----

func.func @yield_outside_linalg_ext(%x: tensor<4xf32>, %o: tensor<4xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.yield' op expects its parent op to be one of 'linalg_ext.scan', 'linalg_ext.scatter', 'linalg_ext.topk', 'linalg_ext.custom', got 'linalg.generic'

// -----

func.func @diag_not_square_under_dynamic_input(%v: tensor<?xf32>, %o: tensor<3x5xf32>) {
  %r = linalg_ext.diag ins(%v : tensor<?xf32>) outs(%o : tensor<3x5xf32>) : tensor<3x5xf32>
  return
}
// CHECK: 'linalg_ext.diag' op expected output to be square in its last two dimensions, got tensor<3x5xf32>
