// affine.load and affine.store: memref.load and memref.store at the map's
// results; a result that is a dimension or symbol is the operand itself, a
// constant an arith.constant, anything else index arithmetic. (xDSL's parser
// binds every index operand of these ops to a symbol of the map.)
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

func.func @shifted_copy(%a: memref<10xf32>, %b: memref<4x3xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 2 {
      %v = affine.load %a[%i * 2 + %j] : memref<10xf32>
      affine.store %v, %b[%i, 2] : memref<4x3xf32>
      %w = affine.load %b[%i, %j - 1 + 1] : memref<4x3xf32>
      affine.store %w, %a[%j + 3] : memref<10xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @shifted_copy(
// CHECK:         scf.for %j = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[T:.*]] = arith.muli %i, %[[C2]] : index
// CHECK-NEXT:      %[[K:.*]] = arith.addi %[[T]], %j : index
// CHECK-NEXT:      %[[V:.*]] = memref.load %a[%[[K]]] : memref<10xf32>
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      memref.store %[[V]], %b[%i, %[[TWO]]] : memref<4x3xf32>
// CHECK-NEXT:      %w = memref.load %b[%i, %j] : memref<4x3xf32>
// CHECK-NEXT:      %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[L:.*]] = arith.addi %j, %[[C3]] : index
// CHECK-NEXT:      memref.store %w, %a[%[[L]]] : memref<10xf32>
// CHECK-NEXT:    }

// Function arguments as indices.
func.func @arguments(%a: memref<4x4xi32>, %i: index, %j: index) {
  %v = affine.load %a[%i, 3 - %j] : memref<4x4xi32>
  affine.store %v, %a[(%i + %j) mod 4, %j] : memref<4x4xi32>
  return
}
// CHECK-LABEL: func.func @arguments(
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[K:.*]] = arith.subi %[[C3]], %j : index
// CHECK-NEXT:    %[[V:.*]] = memref.load %a[%i, %[[K]]] : memref<4x4xi32>
// CHECK:         %[[S:.*]] = arith.addi %i, %j : index
// CHECK:         %[[M:.*]] = arith.select
// CHECK-NEXT:    memref.store %[[V]], %a[%[[M]], %j] : memref<4x4xi32>
