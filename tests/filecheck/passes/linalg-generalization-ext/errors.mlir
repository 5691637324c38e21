// A named op whose scalar body upstream cannot build for its element types
// (mlir-opt rejects such an op) is refused with a message naming it; every
// refusal of the module is reported, and nothing is generalized.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p linalg-generalization-ext | filecheck %s

func.func @sub_i1(%a: memref<4xi1>, %b: memref<4xi1>) {
  linalg.add ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%b : memref<4xi1>)
  linalg.sub ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%b : memref<4xi1>)
  linalg.div ins(%a, %a : memref<4xi1>, memref<4xi1>) outs(%b : memref<4xi1>)
  return
}
// CHECK: linalg-generalization-ext: 'linalg.sub' on memref<4xi1>, memref<4xi1>, memref<4xi1>: upstream builds no scalar body for these element types; 'linalg.div' on memref<4xi1>, memref<4xi1>, memref<4xi1>: upstream builds no scalar body for these element types
