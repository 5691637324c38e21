// The verifier rules of linalg.softmax, linalg.elementwise, the compat
// linalg.reduce and linalg.matmul's indexing maps, each with its message
// (worded as MLIR words it where MLIR has one).
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s

func.func @softmax_dimension(%x: tensor<2x16xf32>) {
  // expected-error @below {{'linalg.softmax' op incorrect dimension specified}}
  %0 = linalg.softmax dimension(2) ins(%x : tensor<2x16xf32>) outs(%x : tensor<2x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @softmax_shape(%x: tensor<2x16xf32>, %o: tensor<16x2xf32>) {
  // expected-error @below {{'linalg.softmax' op incompatible output shape}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%o : tensor<16x2xf32>) -> tensor<16x2xf32>
  return
}

// -----

func.func @softmax_element_type(%x: tensor<2x16xf32>, %o: tensor<2x16xf16>) {
  // expected-error @below {{'linalg.softmax' op failed to verify that input and output have same element type}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%o : tensor<2x16xf16>) -> tensor<2x16xf16>
  return
}

// -----

func.func @softmax_result_type(%x: tensor<2x16xf32>) {
  // expected-error @below {{'linalg.softmax' op expected type of operand #1 ('tensor<2x16xf32>') to match type of corresponding result ('tensor<16x2xf32>')}}
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%x : tensor<2x16xf32>) -> tensor<16x2xf32>
  return
}

// -----

func.func @elementwise_shapes(%a: tensor<4x8xf32>, %t: tensor<8x4xf32>) {
  // expected-error @below {{'linalg.elementwise' op inferred input/output operand #1 has shape's dimension #0 to be 4, but found 8}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a, %t : tensor<4x8xf32>, tensor<8x4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @elementwise_map_count(%a: tensor<4x8xf32>) {
  // expected-error @below {{'linalg.elementwise' op expected the number of indexing_map (1) to be equal to the number of input/output operands (2)}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>] ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reduce_init_shape(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %r: tensor<4xf32>, %s: tensor<5xf32>) {
  // expected-error @below {{'linalg.reduce' op expects all outputs to have the same shapes. Shape at output-index 1 is not equal to the shape at output-index 0.}}
  %0:2 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%r, %s : tensor<4xf32>, tensor<5xf32>) dimensions = [1]
    (%x: f32, %y: f32, %p: f32, %q: f32) {
      linalg.yield %x, %y : f32, f32
    }
  return
}

// -----

func.func @reduce_yield(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %r: tensor<4xf32>) {
  // expected-error @below {{'linalg.reduce' op expected the combiner to yield the inits' element types (f32, f32), got (f32)}}
  %0:2 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%r, %r : tensor<4xf32>, tensor<4xf32>) dimensions = [1]
    (%x: f32, %y: f32, %p: f32, %q: f32) {
      linalg.yield %x : f32
    }
  return
}

// -----

func.func @reduce_dimensions(%a: tensor<4x8xf32>, %r: tensor<4xf32>) {
  // expected-error @below {{'linalg.reduce' op dimensions for reduction should be distinct and in the range [0, 1], got [2]}}
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [2]
  return
}

// -----

func.func @matmul_lhs_map(%a: tensor<4x4xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @below {{'linalg.matmul' op expected the lhs's indexing map to read loops (d0, d2) in some order, got (d0, d1, d2) -> (d0, d1)}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x4xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_broadcast(%v: tensor<4xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @below {{'linalg.matmul' op expected the lhs's broadcast indexing map to read the reduction loop only, (d2), got (d0, d1, d2) -> (d0)}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%v, %b : tensor<4xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_projected(%a: tensor<4x4xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) {
  // expected-error @below {{'linalg.matmul' op expected indexing maps to be projected permutations}}
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x4xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @elementwise_kind_on_integers(%i: tensor<4xi32>) {
  // expected-error @below {{'linalg.elementwise' cannot compute kind exp on i32 elements}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%i : tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @elementwise_arity(%a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elementwise' expects 2 input(s) and 1 output for kind add, got 1 and 1}}
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}
