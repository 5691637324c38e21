// flatten-elementwise: an all-parallel op over whole contiguous buffers of
// one static shape, every map an identity (scalars aside), no linalg.index,
// becomes one loop over collapsed views, in the same order; other ops keep
// their loop nests.
// RUN: xdsl-opt %s -p "convert-linalg-to-loops-ext{flatten-elementwise=true}" | filecheck %s
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s --check-prefix=NESTED

func.func @fill(%o: memref<2x3x4x5xf32>) {
  %c = arith.constant -1.5 : f32
  linalg.fill ins(%c : f32) outs(%o : memref<2x3x4x5xf32>)
  return
}
// CHECK-LABEL: func.func @fill(
// CHECK:         %[[F:.*]] = memref.collapse_shape %o {{\[}}[0 : i64, 1 : i64, 2 : i64, 3 : i64]] : memref<2x3x4x5xf32> into memref<120xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %c120 step %{{.*}} {
// CHECK-NEXT:      memref.store %c, %[[F]][%[[I]]] : memref<120xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// NESTED-LABEL: func.func @fill(
// NESTED-NOT:   memref.collapse_shape
// NESTED-COUNT-4: scf.for

// In place (the output is also an input) and with a scalar input.
func.func @scale_in_place(%x: memref<6x7xf32>, %s: f32) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%s : f32) outs(%x : memref<6x7xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}
// CHECK-LABEL: func.func @scale_in_place(
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : memref<6x7xf32> into memref<42xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %c42 step %{{.*}} {
// CHECK-NEXT:      %[[V:.*]] = memref.load %[[X]][%[[I]]] : memref<42xf32>
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %s, %[[V]] : f32
// CHECK-NEXT:      memref.store %[[M]], %[[X]][%[[I]]] : memref<42xf32>

func.func @add(%a: memref<3x4xi32>, %b: memref<3x4xi32>, %c: memref<3x4xi32>) {
  linalg.add ins(%a, %b : memref<3x4xi32>, memref<3x4xi32>) outs(%c : memref<3x4xi32>)
  return
}
// CHECK-LABEL: func.func @add(
// CHECK-COUNT-3: memref.collapse_shape
// CHECK:         scf.for
// CHECK-NOT:     scf.for
// CHECK:         func.return

// Not flattened: a broadcast operand, a dynamic shape, a strided view, an index.
func.func @bias(%x: memref<3x4xf32>, %b: memref<4xf32>, %o: memref<3x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<3x4xf32>, memref<4xf32>) outs(%o : memref<3x4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @bias(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-2: scf.for

func.func @dynamic(%o: memref<?x4xf32>) {
  %c = arith.constant 2.0 : f32
  linalg.fill ins(%c : f32) outs(%o : memref<?x4xf32>)
  return
}
// CHECK-LABEL: func.func @dynamic(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-2: scf.for

func.func @strided(%o: memref<4x8xf32>) {
  %c = arith.constant 2.0 : f32
  %v = memref.subview %o[0, 0] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  linalg.fill ins(%c : f32) outs(%v : memref<4x4xf32, strided<[8, 1]>>)
  return
}
// CHECK-LABEL: func.func @strided(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-2: scf.for

func.func @index(%o: memref<3x4xindex>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%o : memref<3x4xindex>) {
  ^bb0(%r: index):
    %i = linalg.index 0 : index
    linalg.yield %i : index
  }
  return
}
// CHECK-LABEL: func.func @index(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-2: scf.for
