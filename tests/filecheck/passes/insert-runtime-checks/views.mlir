// memref.copy between dynamic shapes: the same shape ("memref.copy: source
// of shape [4] and destination of shape [2] differ"). memref.subview with a
// dynamic offset, size or stride, or of a dynamic dimension: each such
// dimension inside its source, as the interpreter checks it (a size is not
// negative; a non-empty slice's first and last elements, an empty one's
// offset, within the extent). All-static dimensions are the verifier's.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}
// CHECK-LABEL: func.func @copy(
// CHECK:         %[[A:.*]] = memref.dim %a, %{{.*}} : memref<?xf32>
// CHECK:         %[[B:.*]] = memref.dim %b, %{{.*}} : memref<?xf32>
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[A]], %[[B]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.copy: source of shape [{}] and destination of shape [{}] differ" (%[[A]], %[[B]] : index, index)

func.func @static_copy(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
// CHECK-LABEL: func.func @static_copy(
// CHECK-NOT:     rtcheck.assert
// CHECK:         func.return

func.func @subview(%a: memref<8x?xf32>, %o: index, %s: index) -> f32 {
  %v = memref.subview %a[%o, 1] [%s, 2] [1, 1] : memref<8x?xf32> to memref<?x2xf32, strided<[?, 1], offset: ?>>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0, %c0] : memref<?x2xf32, strided<[?, 1], offset: ?>>
  return %x : f32
}
// CHECK-LABEL: func.func @subview(
// CHECK:         rtcheck.assert %{{.*}}, "memref.subview: size {} of dimension 0" (%s : index)
// CHECK:         %[[LAST:.*]] = arith.addi %o, %{{.*}} : index
// CHECK:         %[[EMPTY:.*]] = arith.cmpi eq, %s, %{{.*}} : index
// CHECK-NEXT:    %[[FITS:.*]] = arith.select %[[EMPTY]], %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    rtcheck.assert %[[FITS]], "memref.subview: slice of dimension 0 (offset {}, size {}, stride {}) is out of bounds of its size {}" (%o, %s, %{{.*}}, %{{.*}} : index, index, index, index)
// CHECK:         %[[N:.*]] = memref.dim %a, %{{.*}} : memref<8x?xf32>
// CHECK:         rtcheck.assert %{{.*}}, "memref.subview: slice of dimension 1 (offset {}, size {}, stride {}) is out of bounds of its size {}" (%{{.*}}, %{{.*}}, %{{.*}}, %[[N]] : index, index, index, index)
// CHECK-NEXT:    %v = memref.subview %a[%o, 1] [%s, 2] [1, 1]
// CHECK:         rtcheck.assert %{{.*}}, "memref.load: index [{}, {}] is out of bounds of shape [{}, 2]"
