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

// -----

func.func @nn_m_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x5x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x5x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "nn", got 4 in lhs and 5 in init

// -----

func.func @nn_n_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x17xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x17xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected N to agree for layout "nn", got 16 in rhs and 17 in init

// -----

func.func @nn_k_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x9x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x9x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "nn", got 8 in lhs and 9 in rhs

// -----

func.func @nt_m_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x5x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x5x16xf32>) layout = "nt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "nt", got 4 in lhs and 5 in init

// -----

func.func @nt_n_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x4x17xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x4x17xf32>) layout = "nt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected N to agree for layout "nt", got 16 in rhs and 17 in init

// -----

func.func @nt_k_all_layouts(%a: tensor<2x4x8xf32>, %b: tensor<2x16x9xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x16x9xf32>) outs(%c : tensor<2x4x16xf32>) layout = "nt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "nt", got 8 in lhs and 9 in rhs

// -----

func.func @tn_m_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x5x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x5x16xf32>) layout = "tn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "tn", got 4 in lhs and 5 in init

// -----

func.func @tn_n_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x17xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x17xf32>) layout = "tn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected N to agree for layout "tn", got 16 in rhs and 17 in init

// -----

func.func @tn_k_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x9x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x9x16xf32>) outs(%c : tensor<2x4x16xf32>) layout = "tn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "tn", got 8 in lhs and 9 in rhs

// -----

func.func @tt_m_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x5x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x5x16xf32>) layout = "tt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected M to agree for layout "tt", got 4 in lhs and 5 in init

// -----

func.func @tt_n_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x16x8xf32>, %c: tensor<2x4x17xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x16x8xf32>) outs(%c : tensor<2x4x17xf32>) layout = "tt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected N to agree for layout "tt", got 16 in rhs and 17 in init

// -----

func.func @tt_k_all_layouts(%a: tensor<2x8x4xf32>, %b: tensor<2x16x9xf32>, %c: tensor<2x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x8x4xf32>, tensor<2x16x9xf32>) outs(%c : tensor<2x4x16xf32>) layout = "tt"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected K to agree for layout "tt", got 8 in lhs and 9 in rhs

// -----

func.func @second_batch_dimension(%a: tensor<2x3x4x8xf32>, %b: tensor<2x5x8x16xf32>, %c: tensor<2x3x4x16xf32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x3x4x8xf32>, tensor<2x5x8x16xf32>) outs(%c : tensor<2x3x4x16xf32>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected batch dimension #1 to agree, got [3, 5, 3] for lhs, rhs and init

// -----

func.func @rhs_element_type(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xcomplex<f32>>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: complex<f32>, %z: f32):
    linalg.yield %z : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xcomplex<f32>>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected rhs element type to be an integer or float type, got complex<f32>

// -----

func.func @init_element_type(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xindex>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: index):
    linalg.yield %z : index
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xindex>) -> tensor<2x4x16xindex>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected init element type to be an integer or float type, got index

// bf16 and f16 have one width: no extf or truncf converts between them.
// -----

func.func @same_width_floats(%a: tensor<2x4x8xbf16>, %b: tensor<2x8x16xbf16>, %c: tensor<2x4x16xf16>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xbf16>, tensor<2x8x16xbf16>) outs(%c : tensor<2x4x16xf16>) layout = "nn"
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected lhs element type bf16 to convert to the init element type f16: floats of the same width cannot be converted by extf or truncf

// -----

func.func @lhs_not_shaped(%a: f32, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %z : f32
  }) : (f32, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected lhs to be a ranked tensor or memref, got f32

// -----

func.func @two_results(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r:2 = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %z : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> (tensor<2x4x16xf32>, tensor<2x4x16xf32>)
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected one result per tensor output (1), got 2

// -----

func.func @result_type(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield %z : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x?xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected result #0 type to match output #0 type tensor<2x4x16xf32>, got tensor<2x4x?xf32>

// -----

func.func @region_argument_type(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f16, %z: f32):
    linalg.yield %z : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected region argument #1 to be of type f32, got f16

// -----

func.func @yields_nothing(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    linalg.yield
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected the region to yield 1 value (new init element), got 0

// -----

func.func @yield_type(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %t = arith.truncf %z : f32 to f16
    linalg.yield %t : f16
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected yielded value #0 to be of type f32, got f16

// -----

func.func @no_body(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected a region with one block, got 0

// The custom form cannot show another body, so another body is not accepted.
// -----

func.func @not_multiply_accumulate(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>) {
  %r = "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.subf %x, %y : f32
    linalg.yield %s : f32
  }) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>, tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  return
}
// CHECK: 'linalg_ext.batch_matmul' op expected the body to be the multiply-accumulate `init + cast(lhs) * cast(rhs)`, as the custom form implies
