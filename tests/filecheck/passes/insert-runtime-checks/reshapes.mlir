// memref.expand_shape with dynamic output sizes: none negative, and each
// group's sizes multiply (exactly: an extended product, overflow detected) to
// its source dimension, as the interpreter checks. memref.collapse_shape of a
// strided source with a dynamic size or stride in a group: the group's
// dimensions contiguous (each one whose extent is not 1 steps over the next
// such one's extent), unless one extent is 0. Row-major sources need nothing.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @expand(%a: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %v = memref.expand_shape %a [[0, 1]] output_shape [%n, 1] : memref<?xf32> into memref<?x1xf32>
  %x = memref.load %v[%c0, %c0] : memref<?x1xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @expand(
// CHECK:         %[[NONNEG:.*]] = arith.cmpi sge, %n, %{{.*}} : index
// CHECK-NEXT:    rtcheck.assert %[[NONNEG]], "memref.expand_shape: negative size in [{}, 1]" (%n : index)
// CHECK:         %[[SOURCE:.*]] = memref.dim %a, %{{.*}} : memref<?xf32>
// CHECK:         %[[LOW:.*]], %{{.*}} = arith.mului_extended %{{.*}}, %n : index
// CHECK:         %[[EQUAL:.*]] = arith.cmpi eq, %[[LOW]], %[[SOURCE]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %{{.*}}, %[[EQUAL]] : i1
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.expand_shape: dimensions [{}, 1] of [{}, 1] do not make up size {} of [{}]" (%n, %n, %[[SOURCE]], %[[SOURCE]] : index, index, index, index)
// CHECK-NEXT:    %v = memref.expand_shape %a

func.func @collapse(%a: memref<4x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = memref.dim %a, %c1 : memref<4x?xf32>
  %s = memref.subview %a[0, 0] [2, %w] [1, 1] : memref<4x?xf32> to memref<2x?xf32, strided<[?, 1]>>
  %v = memref.collapse_shape %s [[0, 1]] : memref<2x?xf32, strided<[?, 1]>> into memref<?xf32, strided<[?]>>
  %x = memref.load %v[%c0] : memref<?xf32, strided<[?]>>
  return %x : f32
}
// CHECK-LABEL: func.func @collapse(
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STRIDE:[^,]*]], %{{.*}} = memref.extract_strided_metadata %s
// CHECK:         %[[WIDTH:.*]] = memref.dim %s, %{{.*}} : memref<2x?xf32, strided<[?, 1]>>
// CHECK:         rtcheck.assert %{{.*}}, "memref.collapse_shape: dimensions [0, 1] of a view of shape [2, {}] and strides [{}, 1] are not contiguous, so they cannot be collapsed without a copy" (%[[WIDTH]], %[[STRIDE]] : index, index)
// CHECK-NEXT:    %v = memref.collapse_shape %s

func.func @row_major(%a: memref<?x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.collapse_shape %a [[0, 1]] : memref<?x4xf32> into memref<?xf32>
  %x = memref.load %v[%c0] : memref<?xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @row_major(
// CHECK-NOT:     memref.collapse_shape: dimensions
// CHECK:         %v = memref.collapse_shape %a
