// Pass failures under --verify-diagnostics: a refusal is located at the op
// the pass names, also when the pass works on a clone of the module.
// RUN: linalg-ext-opt %s --split-input-file --verify-diagnostics -p lower-to-llvm

func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error@+1 {{convert-linalg-to-loops-ext: 'linalg.exp' works on tensors: bufferize first}}
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

builtin.module {
  func.func @cast(%a: i32) -> i64 {
    // expected-error@+1 {{lower-to-llvm: 'builtin.unrealized_conversion_cast' to 'i64' is not lowered to the llvm dialect}}
    %0 = builtin.unrealized_conversion_cast %a : i32 to i64
    return %0 : i64
  }
}
