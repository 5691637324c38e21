// A checked op carrying the discardable attribute rtcheck.origin (set by
// one-shot-bufferize) fails under the name of the tensor op it was
// bufferized from, with the interpreter's message for that op (the
// interpreter reads the attribute too). A memref.copy into a subview made
// from a tensor.insert_slice gives insert_slice's message about the slice
// sizes rather than memref.copy's about two shapes.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @extract_slice(%t: memref<4xf32>) -> f32 {
  %a = memref.cast %t : memref<4xf32> to memref<?xf32>
  %o = arith.constant 1 : index
  %v = memref.subview %a[%o] [2] [1] {rtcheck.origin = "tensor.extract_slice"} : memref<?xf32> to memref<2xf32, strided<[1], offset: ?>>
  %c1 = arith.constant 1 : index
  %x = memref.load %v[%c1] : memref<2xf32, strided<[1], offset: ?>>
  return %x : f32
}
// CHECK-LABEL: func.func @extract_slice(
// CHECK:         rtcheck.assert %{{.*}}, "tensor.extract_slice: slice of dimension 0 (offset {}, size {}, stride {}) is out of bounds of its size {}"
// CHECK-NEXT:    %v = memref.subview %a[%o] [2] [1] {rtcheck.origin = "tensor.extract_slice"}

func.func @insert_slice(%u: memref<3xf32>, %a: memref<4xf32>) {
  %s = memref.cast %u : memref<3xf32> to memref<?xf32>
  %n = arith.constant 3 : index
  %v = memref.subview %a[0] [%n] [1] {rtcheck.origin = "tensor.insert_slice"} : memref<4xf32> to memref<?xf32, strided<[1]>>
  "memref.copy"(%s, %v) {rtcheck.origin = "tensor.insert_slice"} : (memref<?xf32>, memref<?xf32, strided<[1]>>) -> ()
  return
}
// CHECK-LABEL: func.func @insert_slice(
// CHECK:         rtcheck.assert %{{.*}}, "tensor.insert_slice: size {} of dimension 0" (%n : index)
// CHECK:         rtcheck.assert %{{.*}}, "tensor.insert_slice: slice of dimension 0
// CHECK:         %[[S:.*]] = memref.dim %s, %{{.*}} : memref<?xf32>
// CHECK:         %[[V:.*]] = memref.dim %v, %{{.*}} : memref<?xf32, strided<[1]>>
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[S]], %[[V]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "tensor.insert_slice: source of shape [{}] does not fill a slice of sizes [{}]" (%[[S]], %n : index, index)
// CHECK-NEXT:    "memref.copy"(%s, %v)

func.func @cast(%t: memref<3xf32>) -> f32 {
  %a = memref.cast %t : memref<3xf32> to memref<?xf32>
  %v = "memref.cast"(%a) {rtcheck.origin = "tensor.cast"} : (memref<?xf32>) -> memref<3xf32>
  %c2 = arith.constant 2 : index
  %x = memref.load %v[%c2] : memref<3xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @cast(
// CHECK:         rtcheck.assert %{{.*}}, "tensor.cast: the source has shape [{}], which does not fit tensor<3xf32>" (%{{.*}} : index)

func.func @expand_shape(%t: memref<6xf32>) -> f32 {
  %a = memref.cast %t : memref<6xf32> to memref<?xf32>
  %n = arith.constant 3 : index
  %v = memref.expand_shape %a [[0, 1]] output_shape [2, %n] {rtcheck.origin = "tensor.expand_shape"} : memref<?xf32> into memref<2x?xf32>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c1, %c0] : memref<2x?xf32>
  return %x : f32
}
// CHECK-LABEL: func.func @expand_shape(
// CHECK:         rtcheck.assert %{{.*}}, "tensor.expand_shape: negative size in [2, {}]" (%n : index)
// CHECK:         rtcheck.assert %{{.*}}, "tensor.expand_shape: dimensions [2, {}] of [2, {}] do not make up size {} of [{}]"
