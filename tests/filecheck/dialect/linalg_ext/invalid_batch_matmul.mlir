// Every verifier rule of batch_matmul: layout, ranks, batch/M/N/K agreement
// in each layout, element types and the hidden region (generic form).
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @unknown_layout(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nx"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected layout to be one of "nn", "nt", "tn", "tt", got "nx"

// -----

func.func @rank2(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected lhs to have rank >= 3, got tensor<4x8xf32>

// -----

func.func @ranks_differ(%a: tensor<2x4x8xf32>, %b: tensor<1x2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<1x2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected lhs, rhs and init to have the same rank, got 3, 4 and 3

// -----

func.func @batch_differs(%a: tensor<2x4x8xf32>, %b: tensor<3x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<3x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected batch dimension #0 to agree, got [2, 3, 2] for lhs, rhs and init

// -----

func.func @nn_m(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x5x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x5x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "nn", got 4 in lhs and 5 in init

// -----

func.func @nn_n(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x17xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x17xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected N to agree for layout "nn", got 16 in rhs and 17 in init

// -----

// A valid "nn" product is a K mismatch once rhs is declared transposed.
func.func @nt_k(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x8xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x8xf32>) layout = "nt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "nt", got 8 in lhs and 16 in rhs

// -----

func.func @tn_m(%a: tensor<2x8x4xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x8x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x8x16xf32>) layout = "tn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "tn", got 4 in lhs and 8 in init

// -----

func.func @tt_k(%a: memref<2x8x4xf32>, %b: memref<2x16x7xf32>, %c: memref<2x4x16xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x8x4xf32>, memref<2x16x7xf32>) outs(%c : memref<2x4x16xf32>) layout = "tt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "tt", got 8 in lhs and 7 in rhs

// -----

func.func @mixed_tensor_memref(%a: tensor<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, memref<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected all operands to be tensors or all to be memrefs

// -----

func.func @index_elements(%a: tensor<2x4x8xindex>, %b: tensor<2x8x16xindex>, %c: tensor<2x4x16xindex>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: index, %y: index, %z: index):
    %m = arith.muli %x, %y : index
    %s = arith.addi %z, %m : index
    linalg.yield %s : index
  }) : (tensor<2x4x8xindex>, tensor<2x8x16xindex>, tensor<2x4x16xindex>) -> tensor<2x4x16xindex>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected lhs element type to be an integer or float type, got index

// -----

func.func @generic_region_signature(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected the region to take 3 arguments (lhs, rhs and init elements), got 2

// -----

func.func @generic_region_terminator(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    "test.termop"(%z) : (f32) -> ()
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected the region to end with linalg.yield

// -----

func.func @memref_with_result(%a: memref<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: memref<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %z : f32
  }) : (memref<2x4x8xf32>, memref<2x8x16xf32>, memref<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected no results on memref operands, got 1
