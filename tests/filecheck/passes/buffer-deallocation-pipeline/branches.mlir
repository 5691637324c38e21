// Buffers in scf.if: an scf.if whose branches each yield a buffer they
// allocate owns its result; a buffer used in a branch is freed in the
// branch, or after the scf.if when it was allocated before.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

func.func @fresh_in_both(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %r = scf.if %c -> (memref<4xf32>) {
    %a = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    scf.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    linalg.negf ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  }
  linalg.add ins(%r, %x : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @fresh_in_both
// CHECK:         %r = scf.if %c -> (memref<4xf32>) {
// CHECK-NEXT:      %a = memref.alloc()
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      scf.yield %a : memref<4xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %b = memref.alloc()
// CHECK-NEXT:      linalg.negf
// CHECK-NEXT:      scf.yield %b : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    func.return

// Returned: the caller owns whichever branch's buffer it gets.
func.func @fresh_in_both_returned(%x: memref<4xf32>, %c: i1) -> memref<4xf32> {
  %r = scf.if %c -> (memref<4xf32>) {
    %a = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
    scf.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    %t = memref.alloc() : memref<4xf32>
    linalg.negf ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @fresh_in_both_returned
// CHECK:         } else {
// CHECK-NEXT:      %b = memref.alloc()
// CHECK-NEXT:      %t = memref.alloc()
// CHECK-NEXT:      linalg.negf
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:      scf.yield %b : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : memref<4xf32>

// A buffer allocated before the scf.if and yielded by one branch: the result
// may be it, so it is freed after the result's last use.
func.func @outer_buffer_yielded(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %t : memref<4xf32>
  } else {
    scf.yield %x : memref<4xf32>
  }
  linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @outer_buffer_yielded
// CHECK:         linalg.copy ins(%r : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return

// A temporary of one branch only is freed in that branch.
func.func @branch_temporary(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  scf.if %c {
    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  }
  return
}

// CHECK-LABEL: func.func @branch_temporary
// CHECK:         scf.if %c {
// CHECK-NEXT:      %t = memref.alloc()
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    }

// A loop whose body picks one of two fresh buffers each iteration.
func.func @if_in_a_loop(%x: memref<4xf32>, %n: index, %c: i1) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %next = scf.if %c -> (memref<4xf32>) {
      %a = memref.alloc() : memref<4xf32>
      linalg.exp ins(%acc : memref<4xf32>) outs(%a : memref<4xf32>)
      scf.yield %a : memref<4xf32>
    } else {
      %b = memref.alloc() : memref<4xf32>
      linalg.add ins(%acc, %x : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
      scf.yield %b : memref<4xf32>
    }
    scf.yield %next : memref<4xf32>
  }
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @if_in_a_loop
// CHECK:           } else {
// CHECK-NEXT:        %b = memref.alloc()
// CHECK-NEXT:        linalg.add
// CHECK-NEXT:        scf.yield %b : memref<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      scf.yield %next : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %r : memref<4xf32>
