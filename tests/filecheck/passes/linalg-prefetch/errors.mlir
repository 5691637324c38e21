// Copies whose prefetching would change what the program computes are
// refused, each with a message naming the copy and the reason (ByteIR
// rewrites them into wrong code, or crashes); the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p linalg-prefetch | filecheck %s
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p "linalg-prefetch{unroll=true}" | filecheck %s --check-prefix=UNROLL

func.func @conditional(%a: memref<8xf32>, %out: memref<8xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    scf.if %p {
      linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%buf : memref<2xf32>)
    }
  }
  memref.dealloc %buf : memref<2xf32>
  return
}
// CHECK: linalg-prefetch: cannot prefetch 'linalg.copy': it is not directly in the body of its scf.for (it runs conditionally)

// -----

func.func @invariant(%a: memref<2xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    linalg.copy {__byteir_prefetch__} ins(%a : memref<2xf32>) outs(%buf : memref<2xf32>)
  }
  memref.dealloc %buf : memref<2xf32>
  return
}
// CHECK: linalg-prefetch: cannot prefetch 'linalg.copy': its source does not change with the loop's induction variable: there is nothing to prefetch

// -----

func.func @buffer_in_loop(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c2 {
    %buf = memref.alloc() : memref<2xf32>
    %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%buf : memref<2xf32>)
    memref.dealloc %buf : memref<2xf32>
  }
  return
}
// CHECK: linalg-prefetch: cannot prefetch 'linalg.copy': its destination is not a buffer allocated before the loop

// -----

// After the loop %buf holds the last tile; with prefetching it would not.
func.func @read_after(%a: memref<8xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%buf : memref<2xf32>)
  }
  linalg.copy ins(%buf : memref<2xf32>) outs(%out : memref<2xf32>)
  memref.dealloc %buf : memref<2xf32>
  return
}
// CHECK: linalg-prefetch: cannot prefetch 'linalg.copy': its destination is used outside the loop by 'linalg.copy', which would see another iteration's tile

// -----

// Each iteration writes the next tile of %a: a prefetched copy would be stale.
func.func @writes_source(%a: memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    %t = memref.subview %a[%i] [2] [1] : memref<10xf32> to memref<2xf32, strided<[1], offset: ?>>
    %j = arith.addi %i, %c2 : index
    %next = memref.subview %a[%j] [2] [1] : memref<10xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%buf : memref<2xf32>)
    linalg.add ins(%buf, %buf : memref<2xf32>, memref<2xf32>) outs(%next : memref<2xf32, strided<[1], offset: ?>>)
  }
  memref.dealloc %buf : memref<2xf32>
  return
}
// CHECK: linalg-prefetch: cannot prefetch 'linalg.copy': the loop writes the memory it copies from: a prefetched tile would be stale

// -----

// Loop-carried values: prefetched without unrolling, refused with it.
func.func @carried(%a: memref<8xf32>, %out: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<2xf32>
  %s = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %zero) -> (f32) {
    %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%buf : memref<2xf32>)
    %v = memref.load %buf[%c0] : memref<2xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  memref.dealloc %buf : memref<2xf32>
  return %s : f32
}
// CHECK-LABEL: func.func @carried
// CHECK:         scf.for
// CHECK:           scf.if
// UNROLL: linalg-prefetch: cannot prefetch 'linalg.copy': unrolling needs an scf.for without loop-carried values

// -----

// Two tagged copies in one loop: prefetched one after the other without
// unrolling, refused with it (a loop is unrolled for one copy).
func.func @two_copies(%a: memref<8xf32>, %b: memref<8xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %ba = memref.alloc() : memref<2xf32>
  %bb = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c8 step %c2 {
    %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    %u = memref.subview %b[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xf32, strided<[1], offset: ?>>) outs(%ba : memref<2xf32>)
    linalg.copy {__byteir_prefetch__} ins(%u : memref<2xf32, strided<[1], offset: ?>>) outs(%bb : memref<2xf32>)
    linalg.add ins(%ba, %bb : memref<2xf32>, memref<2xf32>) outs(%o : memref<2xf32, strided<[1], offset: ?>>)
  }
  memref.dealloc %ba : memref<2xf32>
  memref.dealloc %bb : memref<2xf32>
  return
}
// CHECK-LABEL: func.func @two_copies
// CHECK-COUNT-2: memref.subview %a
// UNROLL: linalg-prefetch: cannot prefetch 'linalg.copy': unrolling prefetches one copy per loop, and another copy of this loop is prefetched already
