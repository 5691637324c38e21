// A pass refusing its input: lower-to-llvm on a tensor program, reported at
// the op the refusing stage names. The stock xdsl-opt raises the same
// PassFailedException (printed alone under --verify-diagnostics).
// RUN: not linalg-ext-opt %s -p lower-to-llvm 2>&1 | filecheck %s
// RUN: xdsl-opt %s -p lower-to-llvm --verify-diagnostics | filecheck %s --check-prefix=XDSL

func.func @on_tensors(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK:     {{.*}}pass_refusal.mlir:9:8: error: lower-to-llvm: convert-linalg-to-loops-ext: 'linalg.exp' works on tensors: bufferize first{{.*}}
// CHECK-NOT: {{.}}

// XDSL:     lower-to-llvm: convert-linalg-to-loops-ext: 'linalg.exp' works on tensors: bufferize first{{.*}}
// XDSL-NOT: Traceback
