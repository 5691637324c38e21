// Calls: a callee does not free its arguments; a memref it returns whole and
// owns is the caller's, freed after its last use or returned again; one that
// is the callee's argument is the caller's buffer it passed.
// RUN: xdsl-opt %s -p buffer-deallocation-pipeline | filecheck %s

func.func @make(%x: memref<4xf32>) -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%r : memref<4xf32>)
  return %r : memref<4xf32>
}

func.func @scale(%x: memref<4xf32>) -> memref<4xf32> {
  linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>)
  return %x : memref<4xf32>
}

// CHECK-LABEL: func.func @make
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %r : memref<4xf32>

func.func @call_result_freed(%x: memref<4xf32>, %out: memref<4xf32>) {
  %m = func.call @make(%x) : (memref<4xf32>) -> memref<4xf32>
  linalg.add ins(%m, %x : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @call_result_freed
// CHECK:         %m = func.call @make(%x)
// CHECK-NEXT:    linalg.add
// CHECK-NEXT:    memref.dealloc %m : memref<4xf32>
// CHECK-NEXT:    func.return

func.func @call_result_returned(%x: memref<4xf32>) -> memref<4xf32> {
  %m = func.call @make(%x) : (memref<4xf32>) -> memref<4xf32>
  %n = func.call @make(%m) : (memref<4xf32>) -> memref<4xf32>
  return %n : memref<4xf32>
}

// CHECK-LABEL: func.func @call_result_returned
// CHECK:         %n = func.call @make(%m)
// CHECK-NEXT:    memref.dealloc %m : memref<4xf32>
// CHECK-NEXT:    func.return %n : memref<4xf32>

// @scale returns its argument: its result is the caller's %t, freed once,
// after the last use of either.
func.func @argument_returned(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = func.call @scale(%t) : (memref<4xf32>) -> memref<4xf32>
  linalg.copy ins(%s : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @argument_returned
// CHECK:         %s = func.call @scale(%t)
// CHECK-NEXT:    linalg.copy ins(%s : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return
// CHECK-NOT:     memref.dealloc %s

// A buffer passed to a call is still the caller's after it.
func.func @passed_to_a_call(%x: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %m = func.call @make(%t) : (memref<4xf32>) -> memref<4xf32>
  linalg.copy ins(%m : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @passed_to_a_call
// CHECK:         %m = func.call @make(%t)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    memref.dealloc %m : memref<4xf32>
// CHECK-NEXT:    func.return

// @scale returns all of its argument: returning its result returns %t, which
// the caller of @argument_returned_again owns.
func.func @argument_returned_again(%x: memref<4xf32>) -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %s = func.call @scale(%t) : (memref<4xf32>) -> memref<4xf32>
  return %s : memref<4xf32>
}

// CHECK-LABEL: func.func @argument_returned_again
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %s : memref<4xf32>

func.func @owned_through_two_calls(%x: memref<4xf32>, %out: memref<4xf32>) {
  %m = func.call @argument_returned_again(%x) : (memref<4xf32>) -> memref<4xf32>
  linalg.copy ins(%m : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @owned_through_two_calls
// CHECK:         linalg.copy
// CHECK-NEXT:    memref.dealloc %m : memref<4xf32>
// CHECK-NEXT:    func.return
