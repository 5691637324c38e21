// A pass that raises a Python exception it does not mean (here xDSL's own
// convert-linalg-to-loops, NotImplementedError on tensors) is an internal
// error: one line, located at the op the rewriter was on, exit 1. The
// traceback only on request (--show-traceback, or LINALG_EXT_TRACEBACK=1 in
// the environment).
// RUN: not linalg-ext-opt %s -p convert-linalg-to-loops 2>&1 | filecheck %s
// RUN: not linalg-ext-opt %s -p convert-linalg-to-loops --show-traceback 2>&1 | filecheck %s --check-prefix=TRACE
// RUN: env LINALG_EXT_TRACEBACK=1 not linalg-ext-opt %s -p convert-linalg-to-loops 2>&1 | filecheck %s --check-prefix=TRACE

func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// CHECK:     {{.*}}internal_error.mlir:12:8: error: internal error in pass 'convert-linalg-to-loops': NotImplementedError: {{.*}} (--show-traceback or LINALG_EXT_TRACEBACK=1 prints the traceback)
// CHECK-NOT: {{.}}

// TRACE: Traceback (most recent call last):
// TRACE: NotImplementedError
