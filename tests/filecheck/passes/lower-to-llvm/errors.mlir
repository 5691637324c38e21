// RUN: linalg-ext-opt -p lower-to-llvm --split-input-file --verify-diagnostics %s

// An op no step converts is named.

builtin.module {
  func.func @unknown(%x: memref<4xf32>) {
    // expected-error @below {{lower-to-llvm: 'test.op' is not lowered to the llvm dialect (no step of the pipeline converts it)}}
    "test.op"(%x) : (memref<4xf32>) -> ()
    return
  }
}

// -----

// A tensor program must be bufferized first: the step that refuses says so.

builtin.module {
  func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    // expected-error @below {{convert-linalg-to-loops-ext: 'linalg.exp' works on tensors: bufferize first}}
    %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
