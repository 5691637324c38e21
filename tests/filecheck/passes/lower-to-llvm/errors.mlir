// RUN: xdsl-opt -p lower-to-llvm --split-input-file --verify-diagnostics %s

// An op no step converts is named.

// expected-error @below {{lower-to-llvm: 'test.op' is not lowered to the llvm dialect (no step of the pipeline converts it)}}
builtin.module {
  func.func @unknown(%x: memref<4xf32>) {
    "test.op"(%x) : (memref<4xf32>) -> ()
    return
  }
}

// -----

// A tensor program must be bufferized first: the step that refuses says so.

// expected-error @below {{bufferize first}}
builtin.module {
  func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
