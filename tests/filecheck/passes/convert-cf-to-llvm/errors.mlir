// What convert-cf-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-cf-to-llvm | filecheck %s

func.func @tensor_argument(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  cf.cond_br %c, ^out(%a : tensor<4xf32>), ^out(%b : tensor<4xf32>)
^out(%t: tensor<4xf32>):
  return %t : tensor<4xf32>
}
// CHECK: convert-cf-to-llvm: 'cf.cond_br': a destination block has an argument of type tensor<4xf32>, which has no LLVM type

// -----

func.func @unranked(%a: memref<*xf32>) -> memref<*xf32> {
  cf.br ^out(%a : memref<*xf32>)
^out(%m: memref<*xf32>):
  return %m : memref<*xf32>
}
// CHECK: convert-cf-to-llvm: 'cf.br': a destination block has an argument of type memref<*xf32>, which has no LLVM type
