// What convert-arith-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-arith-to-llvm | filecheck %s

func.func @vector(%a: vector<4xf32>) -> vector<4xf32> {
  %b = arith.addf %a, %a : vector<4xf32>
  return %b : vector<4xf32>
}
// CHECK: convert-arith-to-llvm: 'arith.addf': operand or result of type vector<4xf32> is not supported (only scalar integers, index and floats)

// -----

func.func @dense_constant() -> tensor<2xi32> {
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %c : tensor<2xi32>
}
// CHECK: convert-arith-to-llvm: 'arith.constant': a dense value is not supported (only scalar constants)

// -----

func.func @bitcast_memref(%m: memref<4xf32>) -> memref<4xi32> {
  %b = arith.bitcast %m : memref<4xf32> to memref<4xi32>
  return %b : memref<4xi32>
}
// CHECK: convert-arith-to-llvm: 'arith.bitcast': operand or result of type memref<4xf32> is not supported (only scalar integers, index and floats)

// -----

func.func @select_unranked(%c: i1, %a: memref<*xf32>, %b: memref<*xf32>) -> memref<*xf32> {
  %m = arith.select %c, %a, %b : memref<*xf32>
  return %m : memref<*xf32>
}
// CHECK: convert-arith-to-llvm: 'arith.select': selecting values of type memref<*xf32> is not supported (only scalars and ranked memrefs)
