// Ownership known only at run time: the merge carries an i1 flag (one more
// scf.if result, one more scf.for iter_arg and result), true when the buffer
// it carries is one to free, and the buffer is freed under it.
// RUN: xdsl-opt %s -p "buffer-deallocation-pipeline{report=true}" 2>&1 | filecheck %s

// CHECK-NOT: not freed

// A new buffer from one branch, the argument from the other.
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

// CHECK-LABEL: func.func @fresh_or_argument
// CHECK:         %r, %[[OWNED:.*]] = scf.if %c -> (memref<4xf32>, i1) {
// CHECK:           %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      scf.yield %b, %[[TRUE]] : memref<4xf32>, i1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:      scf.yield %x, %[[FALSE]] : memref<4xf32>, i1
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    scf.if %[[OWNED]] {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// A new buffer from one branch, a buffer of the enclosing block (still used
// after the scf.if) from the other: that one is freed after its last use,
// through either name, and the result only when it is the new buffer.
func.func @fresh_or_outer(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %r = scf.if %c -> (memref<4xf32>) {
    %b = memref.alloc() : memref<4xf32>
    linalg.negf ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  } else {
    scf.yield %t : memref<4xf32>
  }
  linalg.add ins(%r, %t : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @fresh_or_outer
// CHECK:         linalg.add ins(%r, %t : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }

// A branch yields an arith.select of its new buffer and the argument: the
// flag compares addresses, and the new buffer is freed in the branch when
// it is not the one yielded.
func.func @selected_in_branch(%x: memref<4xf32>, %c: i1, %d: i1, %out: memref<4xf32>) {
  %r = scf.if %c -> (memref<4xf32>) {
    %b = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    %s = arith.select %d, %b, %x : memref<4xf32>
    scf.yield %s : memref<4xf32>
  } else {
    %e = memref.alloc() : memref<4xf32>
    linalg.negf ins(%x : memref<4xf32>) outs(%e : memref<4xf32>)
    scf.yield %e : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @selected_in_branch
// CHECK:           %s = arith.select %d, %b, %x : memref<4xf32>
// CHECK-NEXT:      %[[P:.*]] = "memref.extract_aligned_pointer_as_index"(%s) : (memref<4xf32>) -> index
// CHECK-NEXT:      %[[Q:.*]] = "memref.extract_aligned_pointer_as_index"(%b) : (memref<4xf32>) -> index
// CHECK-NEXT:      %[[SAME:.*]] = arith.cmpi eq, %[[P]], %[[Q]] : index
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[OTHER:.*]] = arith.xori %[[SAME]], %[[TRUE]] : i1
// CHECK-NEXT:      scf.if %[[OTHER]] {
// CHECK-NEXT:        memref.dealloc %b : memref<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %s, %[[SAME]] : memref<4xf32>, i1

// The loop starts from the argument and yields a new buffer: the first
// iteration must not free the buffer it gets, the others must.
func.func @loop_from_argument(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    linalg.add ins(%acc, %acc : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @loop_from_argument
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:    %r, %[[OWNED:.*]] = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %[[FLAG:.*]] = %[[FALSE]]) -> (memref<4xf32>, i1) {
// CHECK:           linalg.add
// CHECK-NEXT:      scf.if %[[FLAG]] {
// CHECK-NEXT:        memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      }
// CHECK:           scf.yield %new, %{{.*}} : memref<4xf32>, i1
// CHECK:         linalg.copy
// CHECK-NEXT:    scf.if %[[OWNED]] {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }

// The initial buffer is read after the loop: the loop does not take it
// over, and the buffers the body makes are freed by the next iteration or
// after the loop.
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

// CHECK-LABEL: func.func @initial_used_after
// CHECK:         linalg.add ins(%r, %init : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %init : memref<4xf32>
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }

// The iter_arg is replaced on some iterations only: the body yields either
// a new buffer or the iter_arg itself, whose flag then carries on.
func.func @sometimes_replaced(%x: memref<4xf32>, %n: index, %k: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %replace = arith.cmpi slt, %i, %k : index
    %next = scf.if %replace -> (memref<4xf32>) {
      %new = memref.alloc() : memref<4xf32>
      linalg.add ins(%acc, %x : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
      scf.yield %new : memref<4xf32>
    } else {
      linalg.exp ins(%acc : memref<4xf32>) outs(%acc : memref<4xf32>)
      scf.yield %acc : memref<4xf32>
    }
    scf.yield %next : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @sometimes_replaced
// CHECK:         %r, %[[OWNED:.*]] = scf.for {{.*}} iter_args(%acc = %init, %[[FLAG:.*]] = %{{.*}}) -> (memref<4xf32>, i1) {
// CHECK:           %next, %[[NEXT:.*]] = scf.if %replace -> (memref<4xf32>, i1) {
// CHECK:             scf.yield %new, %{{.*}} : memref<4xf32>, i1
// CHECK:             scf.yield %acc, %{{.*}} : memref<4xf32>, i1
// CHECK:           "memref.extract_aligned_pointer_as_index"(%next)
// CHECK:           scf.yield %next, %{{.*}} : memref<4xf32>, i1
// CHECK:         linalg.copy
// CHECK-NEXT:    scf.if %[[OWNED]] {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }

// The body yields an arith.select of a new buffer and the iter_arg.
func.func @selected_in_loop(%x: memref<4xf32>, %n: index, %c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    linalg.add ins(%acc, %x : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
    %s = arith.select %c, %new, %acc : memref<4xf32>
    scf.yield %s : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @selected_in_loop
// CHECK:         scf.for {{.*}} -> (memref<4xf32>, i1) {
// CHECK:           %s = arith.select %c, %new, %acc : memref<4xf32>
// CHECK-COUNT-2:   scf.if
// CHECK:           scf.yield %s, %{{.*}} : memref<4xf32>, i1

// Nested: the inner scf.if's flag becomes the outer one's.
func.func @nested(%x: memref<4xf32>, %c: i1, %d: i1, %out: memref<4xf32>) {
  %r = scf.if %c -> (memref<4xf32>) {
    %inner = scf.if %d -> (memref<4xf32>) {
      %b = memref.alloc() : memref<4xf32>
      linalg.exp ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
      scf.yield %b : memref<4xf32>
    } else {
      scf.yield %x : memref<4xf32>
    }
    scf.yield %inner : memref<4xf32>
  } else {
    scf.yield %x : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @nested
// CHECK:         %r, %[[OUTER:.*]] = scf.if %c -> (memref<4xf32>, i1) {
// CHECK-NEXT:      %inner, %[[INNER:.*]] = scf.if %d -> (memref<4xf32>, i1) {
// CHECK:           scf.yield %inner, %[[INNER]] : memref<4xf32>, i1
// CHECK:         scf.if %[[OUTER]] {
// CHECK-NEXT:      memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    }

// A result that may or may not be a buffer the function owns: the caller
// must own what it gets, so it gets the buffer when the function owns it,
// else a copy (as upstream does).
func.func @returned_selected(%x: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = arith.select %c, %t, %x : memref<4xf32>
  return %s : memref<4xf32>
}

// CHECK-LABEL: func.func @returned_selected
// CHECK:         %[[SAME:.*]] = arith.cmpi eq
// CHECK-NEXT:    %[[RESULT:.*]] = scf.if %[[SAME]] -> (memref<4xf32>) {
// CHECK-NEXT:      scf.yield %s : memref<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[COPY:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%s, %[[COPY]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:      scf.yield %[[COPY]] : memref<4xf32>
// CHECK-NEXT:    }
// The buffer is freed once every result is made (a copy may read it).
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[RESULT]] : memref<4xf32>

// The same for a loop's result (dynamic sizes: the copy takes them from
// the result).
func.func @returned_from_loop(%x: memref<?xf32>, %n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (memref<?xf32>) {
    %size = memref.dim %acc, %c0 : memref<?xf32>
    %new = memref.alloc(%size) : memref<?xf32>
    linalg.add ins(%acc, %acc : memref<?xf32>, memref<?xf32>) outs(%new : memref<?xf32>)
    scf.yield %new : memref<?xf32>
  }
  return %r : memref<?xf32>
}

// CHECK-LABEL: func.func @returned_from_loop
// CHECK:         %r, %[[OWNED:.*]] = scf.for
// CHECK:         %[[RESULT:.*]] = scf.if %[[OWNED]] -> (memref<?xf32>) {
// CHECK-NEXT:      scf.yield %r : memref<?xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[AXIS:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[SIZE:.*]] = memref.dim %r, %[[AXIS]] : memref<?xf32>
// CHECK-NEXT:      %[[COPY:.*]] = memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK-NEXT:      "memref.copy"(%r, %[[COPY]]) : (memref<?xf32>, memref<?xf32>) -> ()
// CHECK-NEXT:      scf.yield %[[COPY]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[RESULT]] : memref<?xf32>

// The caller owns the result of @returned_selected in every case.
func.func @caller(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %r = func.call @returned_selected(%x, %c) : (memref<4xf32>, i1) -> memref<4xf32>
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @caller
// CHECK:         linalg.copy
// CHECK-NEXT:    memref.dealloc %r : memref<4xf32>

// A branch yields a view of the buffer it allocates, the other a view of
// the argument: the view is yielded as a copy (the buffer is freed in the
// branch), owned under the flag.
func.func @view_of_fresh_or_argument(%x: memref<4xf32>, %c: i1, %out: memref<2xf32>) {
  %c1 = arith.constant 1 : index
  %r = scf.if %c -> (memref<2xf32, strided<[?], offset: ?>>) {
    %b = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    %v = memref.subview %b[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
    scf.yield %v : memref<2xf32, strided<[?], offset: ?>>
  } else {
    %w = memref.subview %x[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
    scf.yield %w : memref<2xf32, strided<[?], offset: ?>>
  }
  linalg.copy ins(%r : memref<2xf32, strided<[?], offset: ?>>) outs(%out : memref<2xf32>)
  return
}

// CHECK-LABEL: func.func @view_of_fresh_or_argument
// CHECK:         %r, %[[OWNED:.*]] = scf.if %c -> (memref<2xf32, strided<[?], offset: ?>>, i1) {
// CHECK:           %v = memref.subview %b
// CHECK-NEXT:      %[[COPY:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:      "memref.copy"(%v, %[[COPY]])
// CHECK-NEXT:      %[[CAST:.*]] = "memref.cast"(%[[COPY]])
// CHECK-NEXT:      memref.dealloc %b : memref<4xf32>
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      scf.yield %[[CAST]], %[[TRUE]]
// CHECK:           %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:      scf.yield %w, %[[FALSE]]
// CHECK:         linalg.copy ins(%r
// CHECK-NEXT:    scf.if %[[OWNED]] {
// CHECK-NEXT:      memref.dealloc %r
// CHECK-NEXT:    }

// A branch yields a new buffer or a view of an argument or of a new buffer,
// chosen by a select: the addresses say whether a copy is needed.
func.func @view_or_fresh_selected(%x: memref<4xf32>, %c: i1, %d: i1, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w0 = memref.subview %x[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
  %r = scf.if %c -> (memref<2xf32, strided<[?], offset: ?>>) {
    %b = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    %v = memref.subview %b[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
    %w = memref.subview %x[%c0] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
    %s = arith.select %d, %v, %w : memref<2xf32, strided<[?], offset: ?>>
    scf.yield %s : memref<2xf32, strided<[?], offset: ?>>
  } else {
    %n = memref.alloc() : memref<2xf32>
    linalg.exp ins(%w0 : memref<2xf32, strided<[?], offset: ?>>) outs(%n : memref<2xf32>)
    %m = memref.cast %n : memref<2xf32> to memref<2xf32, strided<[?], offset: ?>>
    scf.yield %m : memref<2xf32, strided<[?], offset: ?>>
  }
  linalg.copy ins(%r : memref<2xf32, strided<[?], offset: ?>>) outs(%out : memref<2xf32>)
  return
}

// CHECK-LABEL: func.func @view_or_fresh_selected
// CHECK:         %s = arith.select %d, %v, %w
// CHECK:         memref.extract_aligned_pointer_as_index
// CHECK:         arith.cmpi eq
// CHECK:         scf.if %{{.*}} -> (memref<2xf32, strided<[?], offset: ?>>) {
// CHECK:           "memref.copy"(%s
// CHECK:         memref.dealloc %b : memref<4xf32>

// The result is a new buffer or a view of one (the fuzzer's shape after
// bufferization): it is returned as it is when it is the new buffer, else
// as a copy, after which the viewed buffer is freed.
func.func @returned_fresh_or_view(%x: memref<4xf32>, %c: i1) -> memref<2xf32, strided<[?], offset: ?>> {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %v = memref.subview %t[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
  %f = memref.alloc() : memref<2xf32>
  linalg.copy ins(%v : memref<2xf32, strided<[?], offset: ?>>) outs(%f : memref<2xf32>)
  linalg.exp ins(%f : memref<2xf32>) outs(%f : memref<2xf32>)
  %r = scf.if %c -> (memref<2xf32, strided<[?], offset: ?>>) {
    %m = memref.cast %f : memref<2xf32> to memref<2xf32, strided<[?], offset: ?>>
    scf.yield %m : memref<2xf32, strided<[?], offset: ?>>
  } else {
    scf.yield %v : memref<2xf32, strided<[?], offset: ?>>
  }
  return %r : memref<2xf32, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @returned_fresh_or_view
// CHECK:         %[[SAME:.*]] = arith.cmpi eq
// CHECK-NEXT:    %[[RESULT:.*]] = scf.if %[[SAME]] -> (memref<2xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      scf.yield %r
// CHECK-NEXT:    } else {
// CHECK:           "memref.copy"(%r
// CHECK:         }
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.dealloc %f : memref<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return %[[RESULT]]

// A view of what may be a new buffer or a view of the argument is returned:
// always as a copy, after which the buffer is freed.
func.func @returned_view_of_either(%x: memref<4xf32>, %c: i1) -> memref<2xf32, strided<[?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%f : memref<4xf32>)
  %r = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
    %m = memref.cast %f : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %m : memref<4xf32, strided<[?], offset: ?>>
  } else {
    %w = memref.cast %x : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    scf.yield %w : memref<4xf32, strided<[?], offset: ?>>
  }
  %v = memref.subview %r[%c0] [2] [%c1] : memref<4xf32, strided<[?], offset: ?>> to memref<2xf32, strided<[?], offset: ?>>
  return %v : memref<2xf32, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @returned_view_of_either
// CHECK:         %v = memref.subview %r
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:    "memref.copy"(%v, %[[COPY]])
// CHECK-NEXT:    %[[CAST:.*]] = "memref.cast"(%[[COPY]])
// CHECK-NEXT:    memref.dealloc %f : memref<4xf32>
// CHECK-NEXT:    func.return %[[CAST]]

// A loop body yields a view of the buffer it allocates: a copy is carried.
func.func @loop_carries_a_view(%x: memref<8xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.subview %x[%c0] [4] [%c1] : memref<8xf32> to memref<4xf32, strided<[?], offset: ?>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32, strided<[?], offset: ?>>) {
    %b = memref.alloc() : memref<8xf32>
    linalg.exp ins(%x : memref<8xf32>) outs(%b : memref<8xf32>)
    %v = memref.subview %b[%c1] [4] [%c1] : memref<8xf32> to memref<4xf32, strided<[?], offset: ?>>
    linalg.add ins(%acc, %v : memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) outs(%v : memref<4xf32, strided<[?], offset: ?>>)
    scf.yield %v : memref<4xf32, strided<[?], offset: ?>>
  }
  linalg.copy ins(%r : memref<4xf32, strided<[?], offset: ?>>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @loop_carries_a_view
// CHECK:         scf.for {{.*}} -> (memref<4xf32, strided<[?], offset: ?>>, i1) {
// CHECK:           "memref.copy"(%v
// CHECK:           memref.dealloc %b : memref<8xf32>
