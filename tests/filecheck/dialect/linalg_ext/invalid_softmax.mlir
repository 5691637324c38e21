// Every verifier rule of softmax and unnorm_softmax, and the destination-style
// rules all linalg_ext ops share, each with its message.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @operand_not_shaped(%x: f32, %o: tensor<4xf32>, %m: tensor<f32>) {
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : f32) outs(%o, %m, %m, %m : tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>) : tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected input #0 to be a ranked tensor or memref, got f32

// -----

func.func @mixed_tensor_and_memref(%x: tensor<4x8xf32>, %o: memref<4x8xf32>, %m: tensor<4xf32>) {
  %r:3 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : memref<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected all operands to be tensors or all to be memrefs

// -----

func.func @results_on_memrefs(%x: memref<4x8xf32>, %o: memref<4x8xf32>, %m: memref<4xf32>) {
  %r = linalg_ext.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%o, %m, %m, %m : memref<4x8xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) : tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected no results on memref operands, got 1

// -----

func.func @too_few_results(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:3 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected one result per tensor output (4), got 3

// -----

func.func @result_type_differs_from_output(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<?xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected result #2 type to match output #2 type tensor<4xf32>, got tensor<?xf32>

// -----

func.func @no_input(%o: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) outs(%o, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected 1 input operand (input), got 0

// -----

func.func @three_outputs(%x: tensor<4x8xf32>, %o: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:3 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected 4 output operands (output, max, accumulator, scale), got 3

// -----

func.func @rank0_input(%x: tensor<f32>, %m: tensor<f32>) {
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<f32>) outs(%x, %m, %m, %m : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected input to have rank >= 1, got tensor<f32>

// -----

func.func @integer_input(%x: tensor<4x8xi32>, %m: tensor<4xi32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xi32>) outs(%x, %m, %m, %m : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) : tensor<4x8xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected input element type to be a float type, got i32

// -----

func.func @dimension_out_of_range(%x: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(2) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected dimension to be in [0, 2), got 2

// -----

func.func @negative_dimension(%x: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(-1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected dimension to be in [0, 2), got -1

// -----

func.func @output_element_type(%x: tensor<4x8xf32>, %o: tensor<4x8xf16>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : tensor<4x8xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected output element type to match input element type f32, got f16

// -----

func.func @max_element_type(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %h: tensor<4xf64>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %h, %m, %m : tensor<4x8xf32>, tensor<4xf64>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf64>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected max element type to match input element type f32, got f64

// -----

func.func @output_rank(%x: tensor<4x8xf32>, %o: tensor<32xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : tensor<32xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<32xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected output to have rank 2, got tensor<32xf32>

// -----

func.func @output_shape(%x: tensor<4x8xf32>, %o: tensor<4x9xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : tensor<4x9xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x9xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected output shape to be compatible with [4, 8], got tensor<4x9xf32>

// -----

func.func @max_shape_keeps_reduced_dim(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %w: tensor<8xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %w, %m, %m : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected max shape to be compatible with [4], got tensor<8xf32>

// -----

func.func @accumulator_rank(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %a: tensor<4x1xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %a, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4x1xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4x1xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected accumulator to have rank 1, got tensor<4x1xf32>

// -----

func.func @accumulator_shape(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %a: tensor<5xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %a, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected accumulator shape to be compatible with [4], got tensor<5xf32>

// ByteIR compares the max shape a second time where it means scale's, so it
// accepts this; we do not.
// -----

func.func @scale_shape(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<8xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<8xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected scale shape to be compatible with [4], got tensor<8xf32>

// -----

func.func @scale_rank(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<4x8xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x8xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected scale to have rank 1, got tensor<4x8xf32>

// -----

func.func @unnorm_scale_shape_memref(%x: memref<4x8xf32>, %m: memref<4xf32>, %s: memref<3xf32>) {
  linalg_ext.unnorm_softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%x, %m, %m, %s : memref<4x8xf32>, memref<4xf32>, memref<4xf32>, memref<3xf32>)
  return
}
// CHECK: 'linalg_ext.unnorm_softmax' op expected scale shape to be compatible with [4], got memref<3xf32>

// -----

func.func @unnorm_output_count(%x: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:5 = linalg_ext.unnorm_softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.unnorm_softmax' op expected 4 output operands (output, max, accumulator, scale), got 5

// -----

func.func @accumulator_element_type(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %a: tensor<4xf16>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %a, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf16>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected accumulator element type to match input element type f32, got f16

// -----

func.func @scale_element_type(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<4xbf16>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %m, %m, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xbf16>
  return
}
// CHECK: 'linalg_ext.softmax' op expected scale element type to match input element type f32, got bf16

// -----

func.func @max_rank(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %w: tensor<f32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%x, %w, %m, %m : tensor<4x8xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<f32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected max to have rank 1, got tensor<f32>

// A dynamic input extent does not let two statistics disagree with each other.
// -----

func.func @statistics_disagree_under_dynamic_input(%x: tensor<?x8xf32>, %o: tensor<?x8xf32>, %m: tensor<?xf32>, %a: tensor<4xf32>, %s: tensor<5xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<?x8xf32>) outs(%o, %m, %a, %s : tensor<?x8xf32>, tensor<?xf32>, tensor<4xf32>, tensor<5xf32>) : tensor<?x8xf32>, tensor<?xf32>, tensor<4xf32>, tensor<5xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected scale shape to be compatible with [4], got tensor<5xf32>

// -----

func.func @output_and_max_disagree_under_dynamic_input(%x: tensor<?x8xf32>, %o: tensor<3x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<?x8xf32>) outs(%o, %m, %m, %m : tensor<3x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<3x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected max shape to be compatible with [3], got tensor<4xf32>

// -----

func.func @unranked_operand(%x: tensor<*xf32>, %o: tensor<4x8xf32>, %m: tensor<4xf32>) {
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<*xf32>) outs(%o, %m, %m, %m : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected input #0 to be a ranked tensor or memref, got tensor<*xf32>

// -----

func.func @vector_operand(%x: tensor<4x8xf32>, %o: vector<4x8xf32>, %m: tensor<4xf32>) {
  %r:3 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%o, %m, %m, %m : vector<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.softmax' op expected output #0 to be a ranked tensor or memref, got vector<4x8xf32>
