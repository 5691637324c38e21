// A buffer that is freed already is not freed again: running the pass on its
// own output changes nothing, and deallocations written by hand are kept.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline,buffer-deallocation-pipeline | filecheck %s

func.func @freed_by_hand(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  memref.dealloc %t : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @freed_by_hand
// CHECK:         linalg.exp
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    func.return

func.func @twice(%x: memref<4xf32>, %n: index, %c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%init : memref<4xf32>)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (memref<4xf32>) {
    %new = memref.alloc() : memref<4xf32>
    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%acc : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%new : memref<4xf32>)
    scf.yield %new : memref<4xf32>
  }
  %s = scf.if %c -> (memref<4xf32>) {
    %a = memref.alloc() : memref<4xf32>
    linalg.exp ins(%r : memref<4xf32>) outs(%a : memref<4xf32>)
    scf.yield %a : memref<4xf32>
  } else {
    %b = memref.alloc() : memref<4xf32>
    linalg.negf ins(%r : memref<4xf32>) outs(%b : memref<4xf32>)
    scf.yield %b : memref<4xf32>
  }
  linalg.copy ins(%s : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @twice
// CHECK:         %r = scf.for
// CHECK-NEXT:      %new = memref.alloc()
// CHECK-NEXT:      %t = memref.alloc()
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      memref.dealloc %acc : memref<4xf32>
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:      memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:      scf.yield %new : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %s = scf.if
// CHECK-NEXT:      %a = memref.alloc()
// CHECK-NEXT:      linalg.exp
// CHECK-NEXT:      scf.yield %a
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %b = memref.alloc()
// CHECK-NEXT:      linalg.negf
// CHECK-NEXT:      scf.yield %b
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %r : memref<4xf32>
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    memref.dealloc %s : memref<4xf32>
// CHECK-NEXT:    func.return
