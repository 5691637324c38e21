// Matmuls: loops (i, k, j), the parallel loop j along which C and B are
// unit-stride innermost (A invariant), so that LLVM can vectorise it; each
// C element still sums over k in ascending order. When j is statically
// short (< 64), k runs fewer than 16 times (LLVM unrolls it: j is then
// innermost with the sum in a register), or with unit-stride-innermost=false,
// loops (i, j, k) as
// upstream, the output element carried through the innermost reduction loop
// k (loaded once, stored once); the factors converted to the output's
// element type first.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s
// RUN: xdsl-opt %s -p 'convert-linalg-to-loops-ext{unit-stride-innermost=false}' | filecheck %s --check-prefix=CARRY
// RUN: xdsl-opt %s -p 'convert-linalg-to-loops-ext{carry-accumulators=false unit-stride-innermost=false}' | filecheck %s --check-prefix=UPSTREAM

func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
// CHECK-LABEL: func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>)
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?x?xf32>
// CHECK-NEXT:    %dim_1 = memref.dim %b, %c1 : memref<?x?xf32>
// CHECK-NEXT:    %dim_2 = memref.dim %a, %c1 : memref<?x?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      scf.for %[[K:.*]] = %c0 to %dim_2 step %c1 {
// CHECK-NEXT:        scf.for %[[J:.*]] = %c0 to %dim_1 step %c1 {
// CHECK-NEXT:          %[[X:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<?x?xf32>
// CHECK-NEXT:          %[[Y:.*]] = memref.load %b[%[[K]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:          %[[C:.*]] = memref.load %c[%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// CHECK-NEXT:          memref.store %[[S]], %c[%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// CARRY-LABEL: func.func @matmul(
// CARRY:         scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CARRY-NEXT:      scf.for %[[J:.*]] = %c0 to %dim_1 step %c1 {
// CARRY-NEXT:        %[[INIT:.*]] = memref.load %c[%[[I]], %[[J]]] : memref<?x?xf32>
// CARRY-NEXT:        %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %dim_2 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CARRY-NEXT:          %[[X:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<?x?xf32>
// CARRY-NEXT:          %[[Y:.*]] = memref.load %b[%[[K]], %[[J]]] : memref<?x?xf32>
// CARRY-NEXT:          %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CARRY-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CARRY-NEXT:          scf.yield %[[S]] : f32
// CARRY-NEXT:        }
// CARRY-NEXT:        memref.store %[[SUM]], %c[%[[I]], %[[J]]] : memref<?x?xf32>
// CARRY-NEXT:      }
// CARRY-NEXT:    }
// CARRY-NEXT:    func.return

// UPSTREAM-LABEL: func.func @matmul(
// UPSTREAM:         scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// UPSTREAM-NEXT:      scf.for %[[J:.*]] = %c0 to %dim_1 step %c1 {
// UPSTREAM-NEXT:        scf.for %[[K:.*]] = %c0 to %dim_2 step %c1 {
// UPSTREAM-NEXT:          %[[X:.*]] = memref.load %a[%[[I]], %[[K]]] : memref<?x?xf32>
// UPSTREAM-NEXT:          %[[Y:.*]] = memref.load %b[%[[K]], %[[J]]] : memref<?x?xf32>
// UPSTREAM-NEXT:          %[[C:.*]] = memref.load %c[%[[I]], %[[J]]] : memref<?x?xf32>
// UPSTREAM-NEXT:          %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// UPSTREAM-NEXT:          %[[S:.*]] = arith.addf %[[C]], %[[P]] : f32
// UPSTREAM-NEXT:          memref.store %[[S]], %c[%[[I]], %[[J]]] : memref<?x?xf32>

// After a fill, as a bufferized program computes C = A B.
func.func @fill_matmul(%a: memref<4x8xf32>, %b: memref<8x3xf32>, %c: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x3xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%c : memref<4x3xf32>)
  return
}
// j runs 3 times, fewer than LLVM unrolls fully before it vectorises: the
// domain's order stays, the output element carried through k.
// CHECK-LABEL: func.func @fill_matmul(
// CHECK:         memref.store %zero, %c
// CHECK:         scf.for %{{.*}} = %c0{{.*}} to %c8 step %c1{{.*}} iter_args

func.func @batch_matmul(%a: memref<2x3x16xf32>, %b: memref<2x16x?xf32>, %c: memref<2x3x?xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x3x16xf32>, memref<2x16x?xf32>) outs(%c : memref<2x3x?xf32>)
  return
}
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         scf.for %[[B:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %[[K:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:          scf.for %[[J:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:            memref.load %a[%[[B]], %[[I]], %[[K]]] : memref<2x3x16xf32>
// CHECK-NEXT:            memref.load %b[%[[B]], %[[K]], %[[J]]] : memref<2x16x?xf32>
// CHECK-NEXT:            memref.load %c[%[[B]], %[[I]], %[[J]]] : memref<2x3x?xf32>
// CHECK:                 memref.store %{{.*}}, %c[%[[B]], %[[I]], %[[J]]] : memref<2x3x?xf32>
// CARRY-LABEL: func.func @batch_matmul(
// CARRY:         scf.for %[[B:.*]] = %c0 to %c2 step %c1 {
// CARRY-NEXT:      scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CARRY-NEXT:        scf.for %[[J:.*]] = %c0 to %dim step %c1 {
// CARRY-NEXT:          %[[INIT:.*]] = memref.load %c[%[[B]], %[[I]], %[[J]]] : memref<2x3x?xf32>
// CARRY-NEXT:          %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c16 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (f32) {
// CARRY-NEXT:            memref.load %a[%[[B]], %[[I]], %[[K]]] : memref<2x3x16xf32>
// CARRY-NEXT:            memref.load %b[%[[B]], %[[K]], %[[J]]] : memref<2x16x?xf32>
// CARRY:                 scf.yield
// CARRY:               memref.store %[[SUM]], %c[%[[B]], %[[I]], %[[J]]] : memref<2x3x?xf32>


// The zero points are scalar inputs, used as they are.
func.func @quantized_matmul(%a: memref<3x4xi8>, %b: memref<4x2xi8>, %az: i32, %bz: i32, %c: memref<3x2xi32>) {
  linalg.quantized_matmul ins(%a, %b, %az, %bz : memref<3x4xi8>, memref<4x2xi8>, i32, i32) outs(%c : memref<3x2xi32>)
  return
}
// CHECK-LABEL: func.func @quantized_matmul(
// CHECK:         iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a
// CHECK-NEXT:      %[[Y:.*]] = memref.load %b
// CHECK-NEXT:      %[[XE:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:      %[[XS:.*]] = arith.subi %[[XE]], %az : i32
// CHECK-NEXT:      %[[YE:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT:      %[[YS:.*]] = arith.subi %[[YE]], %bz : i32
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[XS]], %[[YS]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK-NEXT:      scf.yield %[[S]] : i32
