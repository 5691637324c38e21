// flatten-elementwise: an all-parallel op over contiguous buffers of static
// shapes, no linalg.index, merges each run of neighbouring loops that every
// operand reads alike (neither, or both as neighbouring dimensions in that
// order) into one loop over collapsed views, in the same order; identity
// maps make one loop; other ops keep their loop nests.
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

// A channel bias broadcast over an image: the channel loop stays, the two
// spatial loops (which the bias does not read) become one of 30.
func.func @channel_bias(%x: memref<1x4x5x6xf32>, %b: memref<4xf32>, %o: memref<1x4x5x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : memref<1x4x5x6xf32>, memref<4xf32>) outs(%o : memref<1x4x5x6xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @channel_bias(
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{\[}}[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : memref<1x4x5x6xf32> into memref<1x4x30xf32>
// CHECK:         %[[O:.*]] = memref.collapse_shape %o {{\[}}[0 : i64], [1 : i64], [2 : i64, 3 : i64]] : memref<1x4x5x6xf32> into memref<1x4x30xf32>
// CHECK-COUNT-3: scf.for
// CHECK-NOT:     scf.for
// CHECK:           %[[V:.*]] = memref.load %[[X]][%{{.*}}, %[[C:.*]], %[[HW:.*]]] : memref<1x4x30xf32>
// CHECK-NEXT:      %[[B:.*]] = memref.load %b[%[[C]]] : memref<4xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[V]], %[[B]] : f32
// CHECK-NEXT:      memref.store %[[S]], %[[O]][%{{.*}}, %[[C]], %[[HW]]] : memref<1x4x30xf32>

// Per-channel constants read as (n, c, 0, 0), a batch-norm's: batch and
// channel merge (the constants' unit dimensions stay), and so do the
// spatial loops: 8 x 30.
func.func @per_channel(%x: memref<2x4x5x6xf32>, %m: memref<2x4x1x1xf32>, %o: memref<2x4x5x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, 0, 0)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %m : memref<2x4x5x6xf32>, memref<2x4x1x1xf32>) outs(%o : memref<2x4x5x6xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.mulf %p, %q : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @per_channel(
// CHECK:         %[[X:.*]] = memref.collapse_shape %x {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<2x4x5x6xf32> into memref<8x30xf32>
// CHECK:         %[[M:.*]] = memref.collapse_shape %m {{\[}}[0 : i64, 1 : i64], [2 : i64], [3 : i64]] : memref<2x4x1x1xf32> into memref<8x1x1xf32>
// CHECK:         %[[O:.*]] = memref.collapse_shape %o {{\[}}[0 : i64, 1 : i64], [2 : i64, 3 : i64]] : memref<2x4x5x6xf32> into memref<8x30xf32>
// CHECK-COUNT-2: scf.for
// CHECK-NOT:     scf.for
// CHECK:           %[[V:.*]] = memref.load %[[X]][%[[NC:.*]], %[[HW:.*]]] : memref<8x30xf32>
// CHECK-NEXT:      %[[K:.*]] = memref.load %[[M]][%[[NC]], %{{.*}}, %{{.*}}] : memref<8x1x1xf32>
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[V]], %[[K]] : f32
// CHECK-NEXT:      memref.store %[[S]], %[[O]][%[[NC]], %[[HW]]] : memref<8x30xf32>

// A transposed operand reads the two loops the other way round: no merge.
func.func @transpose(%x: memref<3x4xf32>, %o: memref<4x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<3x4xf32>) outs(%o : memref<4x3xf32>) {
  ^bb0(%p: f32, %r: f32):
    linalg.yield %p : f32
  }
  return
}
// CHECK-LABEL: func.func @transpose(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-2: scf.for

// Not flattened: a row broadcast over a matrix (the two loops are read
// differently), a dynamic shape, a strided view, an index.
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
