// Loads and stores: every index not proven in range is checked against its
// dimension (one unsigned comparison: a negative index is a huge one), with
// the interpreter's message; the static sizes are in the template, the
// dynamic ones are values. Proven in range, and left unchecked: a constant
// inside a static size, the induction variable of a loop from 0 to the
// dimension (static, or `memref.dim` of the same buffer), and an access a
// loop lowering marked `rtcheck.in_bounds` (the mark is removed).
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @dynamic(%a: memref<?xf32>, %i: index) -> f32 {
  %v = memref.load %a[%i] : memref<?xf32>
  return %v : f32
}
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %a, %[[C0]] : memref<?xf32>
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %i, %[[D]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.load: index [{}] is out of bounds of shape [{}]" (%i, %[[D]] : index, index)
// CHECK-NEXT:    %v = memref.load %a[%i] : memref<?xf32>

func.func @mixed(%a: memref<3x?xf32>, %j: index, %v: f32) {
  %c2 = arith.constant 2 : index
  memref.store %v, %a[%c2, %j] : memref<3x?xf32>
  return
}
// CHECK-LABEL: func.func @mixed(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[D:.*]] = memref.dim %a, %[[C1]] : memref<3x?xf32>
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %j, %[[D]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.store: index [{}, {}] is out of bounds of shape [3, {}]" (%c2, %j, %[[D]] : index, index, index)
// CHECK-NEXT:    memref.store %v, %a[%c2, %j] : memref<3x?xf32>

func.func @static_two_dims(%a: memref<4x4xf32>, %i: index, %j: index) -> f32 {
  %v = memref.load %a[%i, %j] : memref<4x4xf32>
  return %v : f32
}
// CHECK-LABEL: func.func @static_two_dims(
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[OK0:.*]] = arith.cmpi ult, %i, %[[C4]] : index
// CHECK-NEXT:    %[[C4_1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[OK1:.*]] = arith.cmpi ult, %j, %[[C4_1]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[OK0]], %[[OK1]] : i1
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.load: index [{}, {}] is out of bounds of shape [4, 4]" (%i, %j : index, index)

func.func @proven(%a: memref<?xf32>, %b: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %first = memref.load %b[%c7] : memref<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %first) -> (f32) {
    %x = memref.load %a[%i] : memref<?xf32>
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %r, %b[%i] : memref<8xf32>
  }
  %m = memref.load %a[%c0] {rtcheck.in_bounds} : memref<?xf32>
  %t = arith.addf %r, %m : f32
  return %t : f32
}
// CHECK-LABEL: func.func @proven(
// CHECK-NOT:     rtcheck.assert
// CHECK-NOT:     rtcheck.in_bounds
// CHECK:         func.return

func.func @loop_past_the_end(%b: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %j = arith.addi %i, %c1 : index
    memref.store %v, %b[%j] : memref<4xf32>
  }
  return
}
// An index computed from a loop's variable is not proven.
// CHECK-LABEL: func.func @loop_past_the_end(
// CHECK:           %j = arith.addi %i, %c1 : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %j, %[[C4]] : index
// CHECK-NEXT:      rtcheck.assert %[[OK]], "memref.store: index [{}] is out of bounds of shape [4]" (%j : index)

func.func @affine(%a: memref<8xf32>, %i: index) -> f32 {
  %v = affine.load %a[%i + 4] : memref<8xf32>
  affine.store %v, %a[%i] : memref<8xf32>
  return %v : f32
}
// Affine accesses are checked as themselves: the index is the map's result.
// CHECK-LABEL: func.func @affine(
// CHECK-NEXT:    %[[I:.*]] = affine.apply affine_map<{{.*}} + 4))> {{.*}}%i{{.*}}
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %[[I]], %[[C8]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "affine.load: index [{}] is out of bounds of shape [8]" (%[[I]] : index)
// CHECK-NEXT:    %v = affine.load %a[{{.*}}] : memref<8xf32>
// CHECK:         rtcheck.assert %{{.*}}, "affine.store: index [{}] is out of bounds of shape [8]" (%{{.*}} : index)
// CHECK-NEXT:    affine.store %v, %a[%i] : memref<8xf32>
