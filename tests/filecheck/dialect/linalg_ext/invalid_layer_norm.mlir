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

// -----

func.func @bias_element_type(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf64>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf64>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected bias element type to match input element type f32, got f64

// -----

func.func @only_bias_shape_wrong(%x: tensor<4x8xf32>, %w: tensor<8xf32>, %b: tensor<4xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected bias shape to be compatible with [8], got tensor<4xf32>

// -----

func.func @weight_rank(%x: tensor<4x8xf32>, %w: tensor<4x8xf32>, %b: tensor<8xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<4x8xf32>, tensor<4x8xf32>, tensor<8xf32>) outs(%x : tensor<4x8xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected weight to have rank 1, got tensor<4x8xf32>

// -----

func.func @output_extent(%x: tensor<4x8xf32>, %o: tensor<4x9xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%o : tensor<4x9xf32>) : tensor<4x9xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected output shape to be compatible with [4, 8], got tensor<4x9xf32>

// -----

func.func @mean_rank(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>, %s: tensor<4xf32>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m, %s : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected mean to have rank 1, got tensor<4x1xf32>

// -----

func.func @mean_element_type(%x: tensor<4x8xf32>, %m: tensor<4xf64>, %s: tensor<4xf32>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m, %s : tensor<4x8xf32>, tensor<4xf64>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf64>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected mean element type to match input element type f32, got f64

// -----

func.func @rstd_rank(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<f32>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : tensor<4x8xf32>) outs(%x, %m, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<f32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected rstd to have rank 1, got tensor<f32>

// -----

func.func @rstd_shape(%x: memref<4x8xf32>, %m: memref<4xf32>, %s: memref<8xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x : memref<4x8xf32>) outs(%x, %m, %s : memref<4x8xf32>, memref<4xf32>, memref<8xf32>)
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected rstd shape to be compatible with [4], got memref<8xf32>

// The custom form has no spelling for infinity or NaN; the generic form has.
// -----

func.func @infinite_epsilon(%x: tensor<4x8xf32>) {
  %r = "linalg_ext.layer_norm"(%x, %x) <{axis = [1], epsilon = 0x7FF0000000000000 : f64, operandSegmentSizes = array<i32: 1, 1>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected epsilon to be finite and >= 0, got inf

// -----

func.func @nan_epsilon(%x: tensor<4x8xf32>) {
  %r = "linalg_ext.layer_norm"(%x, %x) <{axis = [1], epsilon = 0x7FF8000000000000 : f64, operandSegmentSizes = array<i32: 1, 1>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected epsilon to be finite and >= 0, got nan

// A dynamic input extent does not let weight and bias disagree.
// -----

func.func @weight_and_bias_disagree_under_dynamic_input(%x: tensor<2x?xf32>, %w: tensor<4xf32>, %b: tensor<5xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<2x?xf32>, tensor<4xf32>, tensor<5xf32>) outs(%x : tensor<2x?xf32>) : tensor<2x?xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected bias shape to be compatible with [4], got tensor<5xf32>

// -----

func.func @weight_disagrees_with_output_under_dynamic_input(%x: tensor<2x?xf32>, %w: tensor<5xf32>, %o: tensor<2x4xf32>) {
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5) ins(%x, %w, %w : tensor<2x?xf32>, tensor<5xf32>, tensor<5xf32>) outs(%o : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}
// CHECK: 'linalg_ext.layer_norm' op expected weight shape to be compatible with [4], got tensor<5xf32>
