// Buffers that do not leave the function are freed after their last use;
// a returned buffer is the caller's.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

func.func @temporary(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  linalg.add ins(%t, %y : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  linalg.negf ins(%y : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @temporary
// CHECK:         %t = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    linalg.negf
// CHECK-NEXT:    func.return

func.func @two_temporaries(%x: memref<2x3xf32>, %out: memref<2x3xf32>) {
  %a = memref.alloc() : memref<2x3xf32>
  %b = memref.alloc() : memref<2x3xf32>
  linalg.exp ins(%x : memref<2x3xf32>) outs(%a : memref<2x3xf32>)
  linalg.exp ins(%a : memref<2x3xf32>) outs(%b : memref<2x3xf32>)
  linalg.add ins(%b, %x : memref<2x3xf32>, memref<2x3xf32>) outs(%out : memref<2x3xf32>)
  return
}

// CHECK-LABEL: func.func @two_temporaries
// CHECK:         %a = memref.alloc()
// CHECK-NEXT:    %b = memref.alloc()
// CHECK-NEXT:    linalg.exp ins(%x : memref<2x3xf32>) outs(%a : memref<2x3xf32>)
// CHECK-NEXT:    linalg.exp ins(%a : memref<2x3xf32>) outs(%b : memref<2x3xf32>)
// CHECK-NEXT:    memref.dealloc %a : memref<2x3xf32>
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    memref.dealloc %b : memref<2x3xf32>
// CHECK-NEXT:    func.return

// An allocation nobody uses is freed at once; dynamic sizes are no different.
func.func @unused_and_dynamic(%x: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %unused = memref.alloc() : memref<8xi32>
  %t = memref.alloc(%n) : memref<?xf32>
  linalg.exp ins(%x : memref<?xf32>) outs(%t : memref<?xf32>)
  linalg.copy ins(%t : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

// CHECK-LABEL: func.func @unused_and_dynamic
// CHECK:         %unused = memref.alloc() : memref<8xi32>
// CHECK-NEXT:    memref.dealloc %unused : memref<8xi32>
// CHECK-NEXT:    %t = memref.alloc(%n) : memref<?xf32>
// CHECK-NEXT:    linalg.exp
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    memref.dealloc %t : memref<?xf32>
// CHECK-NEXT:    func.return

// The last use is inside a loop: the buffer is freed after the loop.
func.func @used_in_a_loop(%x: memref<4xf32>, %n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  scf.for %i = %c0 to %n step %c1 {
    linalg.add ins(%t, %x : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>)
  }
  linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
  %c2 = arith.constant 2 : index
  return
}

// CHECK-LABEL: func.func @used_in_a_loop
// CHECK:         scf.for
// CHECK-NEXT:      linalg.add
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    func.return

// Returned: the caller owns it. The temporary it was computed from is freed.
func.func @returned(%x: memref<4xf32>) -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  %r = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  linalg.exp ins(%t : memref<4xf32>) outs(%r : memref<4xf32>)
  return %r : memref<4xf32>
}

// CHECK-LABEL: func.func @returned
// CHECK:         linalg.exp ins(%t : memref<4xf32>) outs(%r : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return %r : memref<4xf32>

// Returned through a cast: still the whole buffer, still the caller's.
func.func @returned_cast(%x: memref<4xf32>) -> memref<?xf32> {
  %r = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%r : memref<4xf32>)
  %c = "memref.cast"(%r) : (memref<4xf32>) -> memref<?xf32>
  return %c : memref<?xf32>
}

// CHECK-LABEL: func.func @returned_cast
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %c : memref<?xf32>

// Arguments, globals and allocas are never freed.
"memref.global"() <{sym_name = "table", type = memref<4xf32>, initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, sym_visibility = "private", constant}> : () -> ()

func.func @not_allocations(%x: memref<4xf32>, %out: memref<4xf32>) {
  %g = memref.get_global @table : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  linalg.add ins(%x, %g : memref<4xf32>, memref<4xf32>) outs(%s : memref<4xf32>)
  linalg.copy ins(%s : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @not_allocations
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return
