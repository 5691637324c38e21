// batch_matmul has a hand-written parser: malformed input is a parse error
// that names the op and what is missing.
// RUN: xdsl-opt --split-input-file --parsing-diagnostics %s | filecheck %s

func.func @one_input(%a: tensor<2x4x8xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a : tensor<2x4x8xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' expects ins(lhs, rhs) and outs(init), got 1 inputs and 1 outputs

// -----

func.func @no_layout(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>)
  return
}
// CHECK: Expected 'layout' in 'linalg_ext.batch_matmul'

// -----

func.func @layout_not_a_string(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = nn
  return
}
// CHECK: string literal expected for the batch_matmul layout

// -----

func.func @scalar_operand(%a: f32, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : f32, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' expects tensor or memref operands of integer or float elements, got f32

// -----

func.func @layout_twice(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn" {layout = "tt"}
  return
}
// CHECK: 'linalg_ext.batch_matmul' has its layout given twice, as `layout = ...` and in the attribute dictionary

// -----

func.func @no_outs(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) layout = "nn"
  return
}
// CHECK: Expected 'outs' in 'linalg_ext.batch_matmul'
