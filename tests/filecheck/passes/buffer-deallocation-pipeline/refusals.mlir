// Buffers left unfreed because who owns them cannot be proven (a leak is
// better than a double free), each with the line `report` prints.
// RUN: xdsl-opt %s -p "buffer-deallocation-pipeline{report=true}" 2>&1 | filecheck %s

// The result is a fresh buffer or the argument, depending on %c: freeing it
// could free the caller's argument.
func.func @fresh_or_argument(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %r = scf.if %c -> (memref<4xf32>) {
    %b = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  } else {
    scf.yield %x : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// A view of the buffer is returned: the caller gets no buffer to free.
func.func @view_returned(%x: memref<4xf32>) -> memref<2xf32, strided<[1], offset: 2>> {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = memref.subview %t[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  return %s : memref<2xf32, strided<[1], offset: 2>>
}

// Returned twice: the caller would free it twice.
func.func @returned_twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  return %t, %t : memref<4xf32>, memref<4xf32>
}

// The loop starts from the argument: the first iteration must not free it,
// the others must free the previous one, which would take a run-time flag.
func.func @loop_from_argument(%x: memref<4xf32>, %n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    linalg.add ins(%acc, %acc : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// The initial buffer is read after the loop, so the loop cannot take it over:
// it is freed after that read, and the buffers the body makes leak.
func.func @initial_used_after(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    linalg.exp ins(%acc : memref<4xf32>) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  linalg.add ins(%r, %init : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// The result may be the buffer or the argument.
func.func @selected(%x: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = arith.select %c, %t, %x : memref<4xf32>
  return %s : memref<4xf32>
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

// CHECK:      buffer-deallocation-pipeline: @fresh_or_argument: %b (memref.alloc) not freed: it leaves its block through scf.yield into the results of scf.if, where who owns it cannot be proven (result #0 of scf.if: the value the else branch yields is function argument #0 %x, not a buffer allocated there)
// CHECK-NEXT: buffer-deallocation-pipeline: @view_returned: %t (memref.alloc) not freed: a view of it is returned (result #0): the caller cannot free a view, and the function cannot free a buffer it returns
// CHECK-NEXT: buffer-deallocation-pipeline: @returned_twice: %t (memref.alloc) not freed: it is returned more than once
// CHECK-NEXT: buffer-deallocation-pipeline: @loop_from_argument: %new (memref.alloc) not freed: it leaves its block through scf.yield into the results of scf.for, where who owns it cannot be proven (iter_arg #0 of scf.for: the initial value is function argument #0 %x, not a buffer allocated before the loop, in its block)
// CHECK-NEXT: buffer-deallocation-pipeline: @initial_used_after: %new (memref.alloc) not freed: it leaves its block through scf.yield into the results of scf.for, where who owns it cannot be proven (iter_arg #0 of scf.for: the initial value is still used once the loop has started (by linalg.add))
// CHECK-NEXT: buffer-deallocation-pipeline: @selected: %t (memref.alloc) not freed: result #0 may be it or function argument #0 %x, so the caller cannot own it
// CHECK-NEXT: buffer-deallocation-pipeline: @blocks: function not handled: it has several blocks (unstructured control flow), so nothing in it is freed

// CHECK-LABEL: func.func @fresh_or_argument
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @view_returned
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @returned_twice
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @loop_from_argument
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @initial_used_after
// CHECK:         linalg.add ins(%r, %init : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %init : memref<4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @selected
// CHECK-NOT:     memref.dealloc
// CHECK-LABEL: func.func @blocks
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
