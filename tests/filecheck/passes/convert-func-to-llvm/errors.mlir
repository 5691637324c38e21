// What convert-func-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-func-to-llvm | filecheck %s

func.func @tensors(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK: convert-func-to-llvm: 'func.func': type tensor<4xf32> has no LLVM counterpart

// -----

func.func private @unranked(memref<*xf32>)
// CHECK: convert-func-to-llvm: 'func.func': type memref<*xf32> has no LLVM counterpart
