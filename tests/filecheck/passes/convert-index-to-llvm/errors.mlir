// What convert-index-to-llvm refuses, with a message naming the op; the
// module is left unchanged.
// RUN: xdsl-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -p convert-index-to-llvm | filecheck %s

func.func @unknown(%a: index) -> index {
  %b = "index.frobnicate"(%a) : (index) -> index
  return %b : index
}
// CHECK: convert-index-to-llvm: 'index.frobnicate': has no lowering to the llvm dialect
