// linalg.fill, copy, transpose, broadcast, map and reduce: the loops of
// their generic forms. A scalar (fill's value) is used as it is; copy
// converts the element as upstream's cast_signed does.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

func.func @fill(%v: f32, %out: memref<2x?xf32>) {
  linalg.fill ins(%v : f32) outs(%out : memref<2x?xf32>)
  return
}
// CHECK-LABEL: func.func @fill(%v: f32, %out: memref<2x?xf32>)
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = memref.dim %out, %c1 : memref<2x?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:        memref.store %v, %out[%[[I]], %[[J]]] : memref<2x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }

func.func @copy(%a: memref<5xi8>, %b: memref<5xi32>, %x: memref<5xf32>, %y: memref<5xf64>, %z: memref<5xf32>) {
  linalg.copy ins(%a : memref<5xi8>) outs(%b : memref<5xi32>)
  linalg.copy ins(%x : memref<5xf32>) outs(%y : memref<5xf64>)
  linalg.copy ins(%y : memref<5xf64>) outs(%z : memref<5xf32>)
  return
}
// CHECK-LABEL: func.func @copy(
// CHECK:         %[[A:.*]] = memref.load %a[%[[I:.*]]] : memref<5xi8>
// CHECK-NEXT:    %[[B:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:    memref.store %[[B]], %b[%[[I]]] : memref<5xi32>
// CHECK:         %[[X:.*]] = memref.load %x[%[[J:.*]]] : memref<5xf32>
// CHECK-NEXT:    %[[Y:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK-NEXT:    memref.store %[[Y]], %y[%[[J]]] : memref<5xf64>
// CHECK:         %[[Y2:.*]] = memref.load %y[%[[K:.*]]] : memref<5xf64>
// CHECK-NEXT:    %[[Z:.*]] = arith.truncf %[[Y2]] : f64 to f32
// CHECK-NEXT:    memref.store %[[Z]], %z[%[[K]]] : memref<5xf32>

// The loops are the output's; the input is read permuted (and gives the
// extent of d0, being the first operand indexed by it).
func.func @transpose(%x: memref<2x3x?xf32>, %y: memref<?x2x3xf32>) {
  linalg.transpose ins(%x : memref<2x3x?xf32>) outs(%y : memref<?x2x3xf32>) permutation = [2, 0, 1]
  return
}
// CHECK-LABEL: func.func @transpose(
// CHECK:         %dim = memref.dim %x, %c2 : memref<2x3x?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:        scf.for %[[K:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:          %[[V:.*]] = memref.load %x[%[[J]], %[[K]], %[[I]]] : memref<2x3x?xf32>
// CHECK-NEXT:          memref.store %[[V]], %y[%[[I]], %[[J]], %[[K]]] : memref<?x2x3xf32>

func.func @broadcast(%x: memref<3xi32>, %y: memref<2x3x4xi32>) {
  linalg.broadcast ins(%x : memref<3xi32>) outs(%y : memref<2x3x4xi32>) dimensions = [0, 2]
  return
}
// CHECK-LABEL: func.func @broadcast(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %[[K:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:          %[[V:.*]] = memref.load %x[%[[J]]] : memref<3xi32>
// CHECK-NEXT:          memref.store %[[V]], %y[%[[I]], %[[J]], %[[K]]] : memref<2x3x4xi32>

func.func @map(%x: memref<?x3xf32>, %y: memref<?x3xf32>, %out: memref<?x3xf32>) {
  linalg.map ins(%x, %y : memref<?x3xf32>, memref<?x3xf32>) outs(%out : memref<?x3xf32>)
    (%a: f32, %b: f32, %o: f32) {
      %s = arith.subf %a, %b : f32
      linalg.yield %s : f32
    }
  return
}
// CHECK-LABEL: func.func @map(
// CHECK:         %[[A:.*]] = memref.load %x[%[[I:.*]], %[[J:.*]]] : memref<?x3xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.load %y[%[[I]], %[[J]]] : memref<?x3xf32>
// CHECK-NEXT:    %s = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:    memref.store %s, %out[%[[I]], %[[J]]] : memref<?x3xf32>

// Reducing the innermost dimension: the accumulator is carried.
func.func @reduce_inner(%x: memref<4x?xf32>, %acc: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x?xf32>) outs(%acc : memref<4xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  return
}
// CHECK-LABEL: func.func @reduce_inner(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      %[[INIT:.*]] = memref.load %acc[%[[I]]] : memref<4xf32>
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[J:.*]] = %c0 to %dim step %c1 iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK-NEXT:        %s = arith.addf %[[V]], %[[A]] : f32
// CHECK-NEXT:        scf.yield %s : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[R]], %acc[%[[I]]] : memref<4xf32>

// Reducing the outer dimension: loops in the domain's order, the output
// element loaded and stored every iteration.
func.func @reduce_outer(%x: memref<4x3xi32>, %acc: memref<3xi32>) {
  linalg.reduce ins(%x : memref<4x3xi32>) outs(%acc : memref<3xi32>) dimensions = [0]
    (%in: i32, %a: i32) {
      %m = arith.maxsi %in, %a : i32
      linalg.yield %m : i32
    }
  return
}
// CHECK-LABEL: func.func @reduce_outer(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        %[[V:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<4x3xi32>
// CHECK-NEXT:        %[[A:.*]] = memref.load %acc[%[[J]]] : memref<3xi32>
// CHECK-NEXT:        %m = arith.maxsi %[[V]], %[[A]] : i32
// CHECK-NEXT:        memref.store %m, %acc[%[[J]]] : memref<3xi32>

// A full reduction to rank 0: carried through every loop.
func.func @reduce_all(%x: memref<2x3xf32>, %acc: memref<f32>) {
  linalg.reduce ins(%x : memref<2x3xf32>) outs(%acc : memref<f32>) dimensions = [0, 1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  return
}
// CHECK-LABEL: func.func @reduce_all(
// CHECK:         %[[INIT:.*]] = memref.load %acc[] : memref<f32>
// CHECK-NEXT:    %[[R:.*]] = scf.for %{{.*}} = %c0 to %c2 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (f32) {
// CHECK:         memref.store %[[R]], %acc[] : memref<f32>
