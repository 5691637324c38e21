// Every verifier rule of layer_norm, each with its message. ByteIR reports a
// weight/bias shape error only when both are wrong; we check each.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @two_inputs(%x: tensor<4x8xf32>, %w: tensor<8xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w : tensor<4x8xf32>, tensor<8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected 1 or 3 input operands (input, weight, bias), got 2

// -----

func.func @two_outputs(%x: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:2 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m : tensor<4x8xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected 1 or 3 output operands (output, mean, rstd), got 2

// -----

func.func @integer_input(%x: tensor<4x8xi32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xi32>) outs(%x : tensor<4x8xi32>) : tensor<4x8xi32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected input element type to be a float type, got i32

// -----

func.func @no_axis(%x: tensor<4x8xf32>) {
  %r = linalg_ext.layer_norm axis([]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected at least one axis

// -----

func.func @axis_out_of_range(%x: tensor<4x8xf32>) {
  %r = linalg_ext.layer_norm axis([2]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected axis to be in [0, 2), got 2

// -----

func.func @axis_repeated(%x: tensor<2x4x8xf32>) {
  %r = linalg_ext.layer_norm axis([2, 2]) epsilon(1.0E-5) ins(%x : tensor<2x4x8xf32>) outs(%x : tensor<2x4x8xf32>) : tensor<2x4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected axis to be strictly increasing, got [2, 2]

// -----

func.func @axis_unsorted(%x: tensor<2x4x8xf32>) {
  %r = linalg_ext.layer_norm axis([2, 1]) epsilon(1.0E-5) ins(%x : tensor<2x4x8xf32>) outs(%x : tensor<2x4x8xf32>) : tensor<2x4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected axis to be strictly increasing, got [2, 1]

// -----

func.func @negative_epsilon(%x: tensor<4x8xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(-1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected epsilon to be finite and >= 0, got -1e-05

// -----

func.func @weight_element_type(%x: tensor<4x8xf32>, %w: tensor<8xf16>, %b: tensor<8xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<4x8xf32>, tensor<8xf16>, tensor<8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected weight element type to match input element type f32, got f16

// -----

func.func @only_weight_shape_wrong(%x: tensor<4x8xf32>, %w: tensor<4xf32>, %b: tensor<8xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<4x8xf32>, tensor<4xf32>, tensor<8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected weight shape to be compatible with [8], got tensor<4xf32>

// -----

func.func @only_bias_rank_wrong(%x: memref<2x4x8xf32>, %w: memref<4x8xf32>, %b: memref<8xf32>) {
  linalg_ext.layer_norm axis([1, 2]) epsilon(1.0E-5) ins(%x, %w, %b : memref<2x4x8xf32>, memref<4x8xf32>, memref<8xf32>) outs(%x : memref<2x4x8xf32>)
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected bias to have rank 2, got memref<8xf32>

// -----

func.func @output_element_type(%x: tensor<4x8xf32>, %o: tensor<4x8xf64>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x8xf64>) : tensor<4x8xf64>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected output element type to match input element type f32, got f64

// -----

func.func @output_shape(%x: tensor<4x8xf32>, %o: tensor<4x?x1xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x?x1xf32>) : tensor<4x?x1xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected output to have rank 2, got tensor<4x?x1xf32>

// -----

func.func @mean_keeps_normalised_dim(%x: tensor<4x8xf32>, %m: tensor<8xf32>, %s: tensor<4xf32>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m, %s : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected mean shape to be compatible with [4], got tensor<8xf32>

// -----

func.func @rstd_element_type(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<4xf16>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf16>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf16>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected rstd element type to match input element type f32, got f16
