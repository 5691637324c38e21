// What one-shot-bufferize refuses, each with a message naming the op and
// the reason; the module is left unchanged. (An option value outside its
// choices is refused before anything runs: tools/linalg-ext-opt/bad_option_value.mlir.)
// RUN: xdsl-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p 'one-shot-bufferize{print-conflicts=true}' | filecheck %s --check-prefix=CONFLICTS
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p 'one-shot-bufferize' | filecheck %s --check-prefix=NO-BOUNDARIES

func.func @unknown_op(%a: tensor<8xf32>) -> tensor<8xf32> {
  %b = "test.op"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}
// CHECK: one-shot-bufferize: 'test.op': has tensor operands or results but is not bufferizable (no bufferization model is registered for it); pass allow-unknown-ops to keep it on tensors
// CONFLICTS: one-shot-bufferize: print-conflicts requires test-analysis-only

// -----

func.func @ping(%a: tensor<8xf32>) -> tensor<8xf32> {
  %b = func.call @pong(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}
func.func @pong(%a: tensor<8xf32>) -> tensor<8xf32> {
  %b = func.call @ping(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}
// Without function boundaries a call cannot pass tensors.
// NO-BOUNDARIES: one-shot-bufferize: 'func.call': passes or returns tensors; pass bufferize-function-boundaries to bufferize calls, or allow-unknown-ops to keep them on tensors
// CHECK: one-shot-bufferize: 'func.func': recursive calls (ping -> pong -> ping) cannot be bufferized across function boundaries
