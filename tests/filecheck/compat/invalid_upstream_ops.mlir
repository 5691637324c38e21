// Upstream ops that MLIR 22 rejects, rejected for the same reason (the
// messages below are the part both tools print; ours name the op in front
// where MLIR's do not). invalid_upstream_ops_mlir_opt.mlir gives this file to
// mlir-opt-22. tests/unit/test_upstream_verifiers.py has the full list.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s

func.func @pad_result_type(%t: tensor<4x5xf32>, %v: f32) -> tensor<9x9xf32> {
  // expected-error @below {{specified type 'tensor<9x9xf32>' does not match the inferred type 'tensor<8x8xf32>'}}
  %r = tensor.pad %t low[1, 2] high[3, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x5xf32> to tensor<9x9xf32>
  return %r : tensor<9x9xf32>
}

// -----

func.func @pad_yield_type(%t: tensor<4x5xf32>, %v: f16) -> tensor<8x8xf32> {
  // expected-error @below {{'tensor.pad' op expected yield type to match shape element type}}
  %r = tensor.pad %t low[1, 2] high[3, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f16
  } : tensor<4x5xf32> to tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

func.func @extract_slice_out_of_bounds(%t: tensor<8x8xf32>) -> tensor<4x4xf32> {
  // expected-error @below {{slice along dimension 0 runs out-of-bounds: 9 >= 8}}
  %r = tensor.extract_slice %t[6, 0] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @extract_slice_negative_offset(%t: tensor<?xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected offsets to be non-negative, but got -1}}
  %r = tensor.extract_slice %t[-1] [4] [1] : tensor<?xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @extract_slice_result_type(%t: tensor<8x8xf32>) -> tensor<4xf32> {
  // expected-error @below {{expected type to be 'tensor<2x4xf32>' or a rank-reduced version. (size mismatch)}}
  %r = tensor.extract_slice %t[0, 0] [2, 4] [1, 1] : tensor<8x8xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @insert_slice_out_of_bounds(%s: tensor<4x4xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @below {{slice along dimension 1 runs out-of-bounds: 8 >= 8}}
  %r = tensor.insert_slice %s into %d[0, 5] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

func.func @subview_layout(%m: memref<8x8xf32>) {
  // expected-error @below {{expected result type to be 'memref<4x4xf32, strided<[8, 1], offset: 16>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<4x4xf32, strided<[8, 1]>>'}}
  %r = memref.subview %m[2, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  return
}

// -----

func.func @empty_sizes(%n: index) -> tensor<4x?xf32> {
  // expected-error @below {{'tensor.empty' op incorrect number of dynamic sizes, has 2, expected 1}}
  %r = tensor.empty(%n, %n) : tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

// -----

func.func @collapse_extent(%t: tensor<2x3x4xf32>) -> tensor<5x4xf32> {
  // expected-error @below {{'tensor.collapse_shape' op expected dimension 0 of collapsed type to be static value of 6}}
  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

func.func @memref_expand_extent(%m: memref<6x4xf32>) {
  // expected-error @below {{'memref.expand_shape' op collapsed dim size (6) must equal reassociation group size (8)}}
  %r = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 4, 4] : memref<6x4xf32> into memref<2x4x4xf32>
  return
}

// -----

func.func @generic_yield_type(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %c = arith.constant 1 : i32
    // expected-error @below {{'linalg.yield' op type of yield operand 1 ('i32') doesn't match the element type of the enclosing linalg.generic op ('f32')}}
    linalg.yield %c : i32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @generic_result_type(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @below {{'linalg.generic' op expected type of operand #1 ('tensor<4xf32>') to match type of corresponding result ('tensor<4xf16>')}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

func.func @fill_value_type(%v: f32, %t: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @below {{'linalg.fill' op expected fill value type ('f32') to match output element type ('f16')}}
  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf16>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// -----

// Near misses that both tools accept: a static pad result where MLIR infers
// a dynamic extent, a rank-reducing slice and subview, a slice whose bounds
// depend on a dynamic offset.
func.func @valid(%t: tensor<4x5xf32>, %v: f32, %n: index, %m: memref<8x8xf32>, %s: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<4xf32>, tensor<9x4xf32>) {
  %p = tensor.pad %t low[%n, 2] high[3, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x5xf32> to tensor<8x8xf32>
  %row = tensor.extract_slice %s[2, 0] [1, 4] [1, 1] : tensor<8x8xf32> to tensor<4xf32>
  %tall = tensor.extract_slice %s[%n, 4] [9, 4] [1, 1] : tensor<8x8xf32> to tensor<9x4xf32>
  %col = memref.subview %m[0, 3] [4, 1] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[8], offset: 3>>
  return %p, %row, %tall : tensor<8x8xf32>, tensor<4xf32>, tensor<9x4xf32>
}
