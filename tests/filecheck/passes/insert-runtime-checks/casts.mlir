// memref.cast to a static size, or to a strided layout's static stride or
// offset, where the source's type has a dynamic one: the run-time value is
// the static one, with the interpreter's message ("memref.cast: the source
// has shape [5], which does not fit memref<3xf32>"). Strides of unit
// dimensions, and the layout of an empty view, are not compared. A cast that only forgets static facts needs
// no check.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @to_static_size(%a: memref<3x4xf32>) -> f32 {
  %d = memref.cast %a : memref<3x4xf32> to memref<?x4xf32>
  %v = memref.cast %d : memref<?x4xf32> to memref<3x4xf32>
  %c2 = arith.constant 2 : index
  %x = memref.load %v[%c2, %c2] : memref<3x4xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @to_static_size(
// CHECK:         %[[N:.*]] = memref.dim %d, %{{.*}} : memref<?x4xf32>
// CHECK-NEXT:    %[[THREE:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[N]], %[[THREE]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "memref.cast: the source has shape [{}, 4], which does not fit memref<3x4xf32>" (%[[N]] : index)
// CHECK-NEXT:    %v = "memref.cast"(%d)

func.func @to_static_layout(%a: memref<4x5xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %d = memref.cast %a : memref<4x5xf32> to memref<4x?xf32>
  %s = memref.subview %d[0, %c1] [2, %c3] [1, 1] : memref<4x?xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
  %v = memref.cast %s : memref<2x?xf32, strided<[?, 1], offset: ?>> to memref<2x?xf32, strided<[5, 1], offset: 1>>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0, %c0] : memref<2x?xf32, strided<[5, 1], offset: 1>>
  return %x : f32
}
// CHECK-LABEL: func.func @to_static_layout(
// CHECK:         %{{[0-9]+}}, %[[OFFSET:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %[[STRIDE0:[0-9]+]], %{{[0-9]+}} = memref.extract_strided_metadata %s
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[STRIDE:.*]] = arith.cmpi eq, %[[STRIDE0]], %[[FIVE]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[AT:.*]] = arith.cmpi eq, %[[OFFSET]], %[[ONE]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[STRIDE]], %[[AT]] : i1
// CHECK:         %[[W:.*]] = memref.dim %s, %{{.*}}
// CHECK:         %[[EMPTY:.*]] = arith.cmpi eq, %[[W]], %{{.*}} : index
// CHECK-NEXT:    %[[FINE:.*]] = arith.ori %[[OK]], %[[EMPTY]] : i1
// CHECK-NEXT:    rtcheck.assert %[[FINE]], "memref.cast: the source has strides [{}, 1] and offset {}, which do not fit memref<2x?xf32, strided<[5, 1], offset: 1>>" (%[[STRIDE0]], %[[OFFSET]] : index, index)
// CHECK-NEXT:    %v = "memref.cast"(%s)

func.func @forgets(%a: memref<3xf32>) -> f32 {
  %v = memref.cast %a : memref<3xf32> to memref<?xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0] : memref<?xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @forgets(
// CHECK-NOT:     rtcheck.assert %{{.*}}, "memref.cast
// CHECK:         %v = "memref.cast"(%a)
