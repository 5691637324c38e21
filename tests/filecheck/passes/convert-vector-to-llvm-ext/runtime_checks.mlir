// insert-runtime-checks guards vector.load / vector.store with the
// interpreter's message: leading indices below their size, the last index
// leaving room for the whole vector. Accesses proven in range (constants,
// loop variables whose last value fits) or marked rtcheck.in_bounds are not
// checked.
// test_pass_meaning runs these functions on random inputs (indices 0 to 3,
// dynamic sizes 4), on the interpreter and compiled natively: @checked's
// store is out of bounds for %j = 3 only, so some trials run it and the
// others must fail with the same message on both.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @checked(%a: memref<4x16xf32>, %b: memref<?xf32>, %i: index, %j: index) {
  %v = vector.load %a[%i, %j] : memref<4x16xf32>, vector<2xf32>
  vector.store %v, %b[%j] : memref<?xf32>, vector<2xf32>
  return
}
// CHECK-LABEL: func.func @checked
// CHECK:      %[[ROWS:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[ROW_OK:.*]] = arith.cmpi ult, %i, %[[ROWS]] : index
// CHECK-NEXT: %[[ROOM:.*]] = arith.constant 14 : index
// CHECK-NEXT: %[[COL_OK:.*]] = arith.cmpi ule, %j, %[[ROOM]] : index
// CHECK-NEXT: %[[OK:.*]] = arith.andi %[[ROW_OK]], %[[COL_OK]] : i1
// CHECK-NEXT: rtcheck.assert %[[OK]], "vector.load: vector<2xf32> at index [{}, {}] is out of bounds of shape [4, 16]" (%i, %j : index, index)
// CHECK-NEXT: %v = vector.load %a[%i, %j] : memref<4x16xf32>, vector<2xf32>
// CHECK:      %[[SIZE:.*]] = memref.dim %b
// CHECK-NEXT: %[[LANES:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[FITS:.*]] = arith.cmpi ule, %[[LANES]], %[[SIZE]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[SIZE]], %[[LANES]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ule, %j, %[[LAST]] : index
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[FITS]], %[[IN]] : i1
// CHECK-NEXT: rtcheck.assert %[[BOTH]], "vector.store: vector<2xf32> at index [{}] is out of bounds of shape [{}]" (%j, %[[SIZE]] : index, index)
// CHECK-NEXT: vector.store %v, %b[%j] : memref<?xf32>, vector<2xf32>

func.func @proven(%a: memref<4x64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %r = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c64 step %c16 {
      %v = vector.load %a[%r, %k] : memref<4x64xf32>, vector<16xf32>
      vector.store %v, %a[%i, %c0] {rtcheck.in_bounds} : memref<4x64xf32>, vector<16xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @proven
// CHECK-NOT:  rtcheck.assert
// CHECK:      %v = vector.load %a[%r, %k] : memref<4x64xf32>, vector<16xf32>
// CHECK-NEXT: vector.store %v, %a[%i, %c0] : memref<4x64xf32>, vector<16xf32>
