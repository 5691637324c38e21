// Loops whose step is not a constant: the step must be positive, as the
// interpreter requires ("scf.for: step 0 is not positive"; for
// scf.parallel, every step: "scf.parallel: steps (1, 0) are not all
// positive"). Constant steps are the verifier's.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @for_step(%a: memref<8xf32>, %s: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %step = arith.addi %s, %c1 : index
  %r = scf.for %i = %c0 to %c8 step %step iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<8xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %r, %a[%i] : memref<8xf32>
  }
  return %r : f32
}
// CHECK-LABEL: func.func @for_step(
// CHECK:         %step = arith.addi %s, %c1 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi sgt, %step, %[[C0]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "scf.for: step {} is not positive" (%step : index)
// CHECK-NEXT:    %r = scf.for %i = %c0 to %c8 step %step
// CHECK-NOT:     rtcheck.assert
// CHECK:         func.return

func.func @parallel_steps(%a: memref<4x4xf32>, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %step = arith.addi %s, %c1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %step) {
    memref.store %one, %a[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  return
}
// CHECK-LABEL: func.func @parallel_steps(
// CHECK:         %step = arith.addi %s, %c1 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[OK0:.*]] = arith.cmpi sgt, %c1, %[[C0]] : index
// CHECK-NEXT:    %[[OK1:.*]] = arith.cmpi sgt, %step, %[[C0]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[OK0]], %[[OK1]] : i1
// CHECK-NEXT:    rtcheck.assert %[[OK]], "scf.parallel: steps ({}, {}) are not all positive" (%c1, %step : index, index)
// CHECK-NEXT:    scf.parallel
// CHECK-NOT:     rtcheck.assert
// CHECK:         func.return
