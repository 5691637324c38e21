// What convert-math-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-math-to-llvm | filecheck %s

func.func @vector(%a: vector<4xf32>) -> vector<4xf32> {
  %b = math.exp %a : vector<4xf32>
  return %b : vector<4xf32>
}
// CHECK: convert-math-to-llvm: 'math.exp': operand or result of type vector<4xf32> is not supported (only scalar integers, index and floats)

// -----

func.func @tensor(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = math.tanh %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
// CHECK: convert-math-to-llvm: 'math.tanh': operand or result of type tensor<4xf32> is not supported (only scalar integers, index and floats)

// -----

func.func @wide_libm(%a: f128) -> f128 {
  %b = math.erf %a : f128
  return %b : f128
}
// CHECK: convert-math-to-llvm: 'math.erf': no libm function computes it on f128 (only f16, bf16, f32, f64)
