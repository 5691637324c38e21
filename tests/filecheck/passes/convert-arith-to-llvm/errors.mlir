// What convert-arith-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-arith-to-llvm | filecheck %s

func.func @vector_2d(%a: vector<2x4xf32>) -> vector<2x4xf32> {
  %b = arith.addf %a, %a : vector<2x4xf32>
  return %b : vector<2x4xf32>
}
// CHECK: convert-arith-to-llvm: 'arith.addf': only one-dimensional vectors are supported: vector<2x4xf32>

// -----

func.func @index_vector(%a: vector<4xindex>) -> vector<4xindex> {
  %b = arith.addi %a, %a : vector<4xindex>
  return %b : vector<4xindex>
}
// CHECK: convert-arith-to-llvm: 'arith.addi': vectors of index are not supported (only of signless integers and floats): vector<4xindex>

// -----

func.func @dense_constant() -> tensor<2xi32> {
  %c = arith.constant dense<[1, 2]> : tensor<2xi32>
  return %c : tensor<2xi32>
}
// CHECK: convert-arith-to-llvm: 'arith.constant': a dense value is not supported (only scalar and dense vector constants)

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
// CHECK: convert-arith-to-llvm: 'arith.select': selecting values of type memref<*xf32> is not supported (only scalars, vectors and ranked memrefs)
