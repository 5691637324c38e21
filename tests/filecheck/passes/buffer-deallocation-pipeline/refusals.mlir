// Buffers left unfreed because who owns them cannot be proven (a leak is
// better than a double free), each with the line `report` prints.
// RUN: xdsl-opt %s -p "buffer-deallocation-pipeline{report=true}" 2>&1 | filecheck %s

// A view of the buffer is returned: the caller gets no buffer to free.
func.func @view_returned(%x: memref<4xf32>) -> memref<2xf32, strided<[1], offset: 2>> {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = memref.subview %t[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  return %s : memref<2xf32, strided<[1], offset: 2>>
}

// Unstructured control flow is not followed.
func.func @blocks(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  cf.br ^next
^next:
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK:      buffer-deallocation-pipeline: @view_returned: %t (memref.alloc) not freed: a view of it is returned (result #0): the caller cannot free a view, and the function cannot free a buffer it returns
// CHECK-NEXT: buffer-deallocation-pipeline: @blocks: %t (memref.alloc) not freed: it is used outside its block (by linalg.copy): the pass follows no buffer across blocks (unstructured control flow)

// CHECK-LABEL: func.func @view_returned
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @blocks
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
