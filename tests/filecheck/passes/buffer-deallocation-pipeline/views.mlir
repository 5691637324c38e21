// A buffer is freed after the last use of the buffer or of any view of it,
// and only the buffer itself is freed, never a view.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

func.func @subview(%x: memref<4x4xf32>, %out: memref<2x2xf32>) {
  %t = memref.alloc() : memref<4x4xf32>
  linalg.exp ins(%x : memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  %s = memref.subview %t[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  linalg.negf ins(%x : memref<4x4xf32>) outs(%x : memref<4x4xf32>)
  linalg.copy ins(%s : memref<2x2xf32, strided<[4, 1], offset: 5>>) outs(%out : memref<2x2xf32>)
  return
}

// CHECK-LABEL: func.func @subview
// CHECK:         %s = memref.subview %t
// CHECK-NEXT:    linalg.negf
// CHECK-NEXT:    linalg.copy ins(%s
// CHECK-NEXT:    memref.dealloc %t : memref<4x4xf32>
// CHECK-NEXT:    func.return

func.func @reshapes(%x: memref<16xf32>, %out: memref<2x2x4xf32>) {
  %t = memref.alloc() : memref<16xf32>
  linalg.exp ins(%x : memref<16xf32>) outs(%t : memref<16xf32>)
  %e = memref.expand_shape %t [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %f = memref.expand_shape %e [[0, 1], [2]] output_shape [2, 2, 4] : memref<4x4xf32> into memref<2x2x4xf32>
  linalg.copy ins(%f : memref<2x2x4xf32>) outs(%out : memref<2x2x4xf32>)
  return
}

// CHECK-LABEL: func.func @reshapes
// CHECK:         %f = memref.expand_shape %e
// CHECK-NEXT:    linalg.copy ins(%f : memref<2x2x4xf32>) outs(%out : memref<2x2x4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<16xf32>
// CHECK-NEXT:    func.return

// A view made and used inside a loop keeps the buffer alive until the loop ends.
func.func @view_in_a_loop(%x: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<8xf32>
  linalg.exp ins(%x : memref<8xf32>) outs(%t : memref<8xf32>)
  scf.for %i = %c0 to %c8 step %c2 {
    %s = memref.subview %t[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy ins(%s : memref<2xf32, strided<[1], offset: ?>>) outs(%o : memref<2xf32, strided<[1], offset: ?>>)
  }
  return
}

// CHECK-LABEL: func.func @view_in_a_loop
// CHECK:         scf.for
// CHECK-NOT:       memref.dealloc
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %t : memref<8xf32>
// CHECK-NEXT:    func.return

// A collapsed view returned through a reshape is still the whole buffer: the caller's.
func.func @returned_collapsed(%x: memref<2x3xf32>) -> memref<6xf32> {
  %t = memref.alloc() : memref<2x3xf32>
  linalg.exp ins(%x : memref<2x3xf32>) outs(%t : memref<2x3xf32>)
  %c = memref.collapse_shape %t [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  return %c : memref<6xf32>
}

// CHECK-LABEL: func.func @returned_collapsed
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %c : memref<6xf32>

// Views of an argument are not freed.
func.func @argument_view(%x: memref<4x4xf32>, %out: memref<2x4xf32>) {
  %s = memref.subview %x[2, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  linalg.copy ins(%s : memref<2x4xf32, strided<[4, 1], offset: 8>>) outs(%out : memref<2x4xf32>)
  return
}

// CHECK-LABEL: func.func @argument_view
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
