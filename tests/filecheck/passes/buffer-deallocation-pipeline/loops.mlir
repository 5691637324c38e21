// Buffers in scf.for: allocated and freed in the body; carried through
// iter_args as fresh buffers (each iteration frees the previous one); carried
// and updated in place.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

func.func @body_temporary(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%out : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  }
  return
}

// CHECK-LABEL: func.func @body_temporary
// CHECK:         scf.for
// CHECK-NEXT:      %t = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// Fresh buffers through iter_args: the body frees the previous iteration's
// buffer after its last use; the last one is returned.
func.func @carried_fresh(%x: memref<4xf32>, %n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    linalg.add ins(%acc, %x : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
    linalg.exp ins(%x : memref<4xf32>) outs(%x : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @carried_fresh
// CHECK:         %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
// CHECK-NEXT:      %new = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      scf.yield %new : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : memref<4xf32>

// The same, with the loop's result used and then freed by the function, and
// the first iteration's buffer a dynamic one.
func.func @carried_fresh_freed(%x: memref<?xf32>, %n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.dim %x, %c0 : memref<?xf32>
  %init = memref.alloc(%d) : memref<?xf32>
  linalg.copy ins(%x : memref<?xf32>) outs(%init : memref<?xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<?xf32>) {
    %new = memref.alloc(%d) : memref<?xf32>
    linalg.mul ins(%acc, %x : memref<?xf32>, memref<?xf32>) outs(%new : memref<?xf32>)
    scf.yield %new : memref<?xf32>
  }
  linalg.copy ins(%r : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

// CHECK-LABEL: func.func @carried_fresh_freed
// CHECK:           linalg.mul
// CHECK-NEXT:      memref.dealloc %acc : memref<?xf32>
// CHECK-NEXT:      scf.yield %new : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.copy ins(%r : memref<?xf32>) outs(%out : memref<?xf32>)
// CHECK-NEXT:    memref.dealloc %r : memref<?xf32>
// CHECK-NEXT:    func.return

// Updated in place: the loop carries the same buffer, freed after the loop.
func.func @carried_in_place(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%buf : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %buf) -> (memref<4xf32>) {
    linalg.add ins(%acc, %x : memref<4xf32>, memref<4xf32>) outs(%acc : memref<4xf32>)
    scf.yield %acc : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @carried_in_place
// CHECK:         scf.for
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      scf.yield %acc : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %buf : memref<4xf32>
// CHECK-NEXT:    func.return

// Nested loops, both carrying fresh buffers; the inner loop's result is the
// outer loop's next buffer.
func.func @nested(%x: memref<4xf32>, %n: index, %m: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%outer = %init) -> (memref<4xf32>) {
    %start = memref.alloc() : memref<4xf32>
    linalg.exp ins(%outer : memref<4xf32>) outs(%start : memref<4xf32>)
    %q = scf.for %j = %c0 to %m step %c1 iter_args(%inner = %start) -> (memref<4xf32>) {
      %next = memref.alloc() : memref<4xf32>
      linalg.add ins(%inner, %outer : memref<4xf32>, memref<4xf32>) outs(%next : memref<4xf32>)
      scf.yield %next : memref<4xf32>
    }
    scf.yield %q : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @nested
// CHECK:         %r = scf.for
// CHECK-NEXT:      %start = memref.alloc()
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      %q = scf.for
// CHECK-NEXT:        %next = memref.alloc()
// CHECK-NEXT:        linalg.add
// CHECK-NEXT:        memref.dealloc %inner : memref<4xf32>
// CHECK-NEXT:        scf.yield %next : memref<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.dealloc %outer : memref<4xf32>
// CHECK-NEXT:      scf.yield %q : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : memref<4xf32>

// The body reads the iter_arg only through a view: freed after the view's use.
func.func @carried_view_use(%x: memref<4xf32>, %n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    %e = memref.expand_shape %acc [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
    %f = memref.expand_shape %new [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
    linalg.transpose ins(%e : memref<2x2xf32>) outs(%f : memref<2x2xf32>) permutation = [1, 0]
    scf.yield %new : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @carried_view_use
// CHECK:           linalg.transpose
// CHECK-NEXT:      memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      scf.yield %new : memref<4xf32>

// Updated in place and returned: the loop's result is all of %buf, which the
// caller gets.
func.func @carried_in_place_returned(%x: memref<4xf32>, %n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %buf = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%buf : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %buf) -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%acc : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%acc : memref<4xf32>)
    scf.yield %acc : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @carried_in_place_returned
// CHECK:           linalg.add
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:      scf.yield %acc : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : memref<4xf32>
