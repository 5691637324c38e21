// linalg.elemwise_unary / elemwise_binary refused where MLIR 19's region
// builder aborts, and the structured-op rules, each with a located message.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s

func.func @unary_on_integers(%i: tensor<4xi32>) {
  // expected-error @below {{'linalg.elemwise_unary' cannot compute fun exp on i32 elements}}
  %0 = linalg.elemwise_unary ins(%i : tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @div_unsigned_on_floats(%a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_binary' cannot compute fun div_unsigned on f32 elements}}
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<div_unsigned>} ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @sub_on_i1(%c: tensor<4xi1>) {
  // expected-error @below {{'linalg.elemwise_binary' cannot compute fun sub on i1 elements}}
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%c, %c : tensor<4xi1>, tensor<4xi1>) outs(%c : tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @wrong_function_kind(%a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_unary' expects fun to be a #linalg.unary_fn<...>}}
  %0 = linalg.elemwise_unary {fun = #linalg.binary_fn<add>} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @no_conversion(%h: tensor<4xbf16>, %g: tensor<4xf16>) {
  // expected-error @below {{'linalg.elemwise_unary' cannot cast_signed bf16 to f16}}
  %0 = linalg.elemwise_unary ins(%h : tensor<4xbf16>) outs(%g : tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @input_count(%a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_binary' expects 2 input(s) and 1 output, got 1 and 1}}
  %0 = linalg.elemwise_binary ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @rank(%m: tensor<2x4xf32>, %a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_unary' op expected operand rank (2) to match the result rank of indexing_map #0 (1)}}
  %0 = linalg.elemwise_unary ins(%m : tensor<2x4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @shape(%b: tensor<5xf32>, %a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_binary' op inferred input/output operand #2 has shape's dimension #0 to be 5, but found 4}}
  %0 = linalg.elemwise_binary ins(%b, %b : tensor<5xf32>, tensor<5xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @result_type(%a: tensor<4xf32>) {
  // expected-error @below {{'linalg.elemwise_unary' op expected type of operand #1 ('tensor<4xf32>') to match type of corresponding result ('tensor<5xf32>')}}
  %0 = linalg.elemwise_unary ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @mixed_semantics(%a: tensor<4xf32>, %m: memref<4xf32>) {
  // expected-error @below {{'linalg.elemwise_unary' op expected to have pure tensor or buffer semantics}}
  linalg.elemwise_unary ins(%a : tensor<4xf32>) outs(%m : memref<4xf32>)
  return
}
