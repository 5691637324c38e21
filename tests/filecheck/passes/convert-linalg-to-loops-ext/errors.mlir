// What convert-linalg-to-loops-ext refuses, each with a message naming the op
// and the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-linalg-to-loops-ext | filecheck %s

func.func @on_tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK: convert-linalg-to-loops-ext: 'linalg.add' works on tensors: bufferize first (one-shot-bufferize); only ops on memrefs are lowered to loops

// -----

func.func @no_body(%a: memref<4xi1>, %b: memref<4xi1>) {
  linalg.sub ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%b : memref<4xi1>)
  return
}
// CHECK: convert-linalg-to-loops-ext: 'linalg.sub' on memref<4xi1>, memref<4xi1>, memref<4xi1>: upstream builds no scalar body for these element types

// -----

// Every refusal of the module is reported, and nothing is lowered.
func.func @two(%a: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  linalg.exp ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.log ins(%r : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
// CHECK: convert-linalg-to-loops-ext: 'linalg.exp' works on tensors: bufferize first (one-shot-bufferize); only ops on memrefs are lowered to loops; 'linalg.log' works on tensors: bufferize first (one-shot-bufferize); only ops on memrefs are lowered to loops
