// A tagged copy in a loop fetches its tile `count` iterations ahead into
// extra buffers, which move down at the end of each iteration.
// RUN: xdsl-opt %s -p linalg-prefetch | filecheck %s
// RUN: xdsl-opt %s -p "linalg-prefetch{count=2}" | filecheck %s --check-prefix=TWO

// Rows of %a are staged through %buf (in memory space 1) for linalg.exp.
func.func @rows(%a: memref<8x3xf32>, %out: memref<8x3xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %buf = memref.alloc() : memref<2x3xf32, 1>
  scf.for %i = %c0 to %c8 step %c2 {
    %t = memref.subview %a[%i, 0] [2, 3] [1, 1] : memref<8x3xf32> to memref<2x3xf32, strided<[3, 1], offset: ?>>
    %o = memref.subview %out[%i, 0] [2, 3] [1, 1] : memref<8x3xf32> to memref<2x3xf32, strided<[3, 1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2x3xf32, strided<[3, 1], offset: ?>>) outs(%buf : memref<2x3xf32, 1>)
    linalg.exp ins(%buf : memref<2x3xf32, 1>) outs(%o : memref<2x3xf32, strided<[3, 1], offset: ?>>)
  }
  memref.dealloc %buf : memref<2x3xf32, 1>
  return
}
// CHECK-LABEL: func.func @rows
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<2x3xf32, 1 : i64>
// CHECK-NEXT:    %[[NEXT:.*]] = memref.alloc() : memref<2x3xf32, 1 : i64>
// CHECK-NEXT:    %[[T0:.*]] = memref.subview %a[%c0, 0] [2, 3] [1, 1]
// CHECK-NEXT:    linalg.copy ins(%[[T0]] : {{.*}}) outs(%[[BUF]] : memref<2x3xf32, 1 : i64>)
// CHECK-NEXT:    scf.for %i = %c0 to %c8 step %c2 {
// CHECK-NEXT:      %o = memref.subview %out[%i, 0]
// CHECK-NEXT:      %[[N:.*]] = arith.addi %i, %c2 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[N]], %c8 : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        %[[T:.*]] = memref.subview %a[%[[N]], 0] [2, 3] [1, 1]
// CHECK-NEXT:        linalg.copy ins(%[[T]] : {{.*}}) outs(%[[NEXT]] : memref<2x3xf32, 1 : i64>)
// CHECK-NEXT:      }
// CHECK-NEXT:      linalg.exp ins(%[[BUF]] : memref<2x3xf32, 1 : i64>) outs(%o : {{.*}})
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        linalg.copy ins(%[[NEXT]] : {{.*}}) outs(%[[BUF]] : {{.*}})
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[NEXT]]
// CHECK-NEXT:    memref.dealloc %[[BUF]]

// TWO-LABEL: func.func @rows
// TWO:         %[[BUF:.*]] = memref.alloc() : memref<2x3xf32, 1 : i64>
// TWO-NEXT:    %[[B1:.*]] = memref.alloc() : memref<2x3xf32, 1 : i64>
// TWO-NEXT:    %[[B2:.*]] = memref.alloc() : memref<2x3xf32, 1 : i64>
// TWO-NEXT:    %[[T0:.*]] = memref.subview %a[%c0, 0]
// TWO-NEXT:    linalg.copy ins(%[[T0]] : {{.*}}) outs(%[[BUF]] : {{.*}})
// TWO-NEXT:    %[[I1:.*]] = arith.addi %c0, %c2 : index
// TWO-NEXT:    %[[T1:.*]] = memref.subview %a[%[[I1]], 0]
// TWO-NEXT:    linalg.copy ins(%[[T1]] : {{.*}}) outs(%[[B1]] : {{.*}})
// TWO-NEXT:    scf.for %i = %c0 to %c8 step %c2 {
// TWO:           %[[N:.*]] = arith.addi %i, %{{.*}} : index
// TWO-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[N]], %c8 : index
// TWO-NEXT:      scf.if %[[IN]] {
// TWO-NEXT:        %[[T:.*]] = memref.subview %a[%[[N]], 0]
// TWO-NEXT:        linalg.copy ins(%[[T]] : {{.*}}) outs(%[[B2]] : {{.*}})
// TWO-NEXT:      }
// TWO-NEXT:      linalg.exp ins(%[[BUF]] : {{.*}})
// TWO-NEXT:      %[[M:.*]] = arith.addi %i, %c2 : index
// TWO-NEXT:      %[[MIN:.*]] = arith.cmpi slt, %[[M]], %c8 : index
// TWO-NEXT:      scf.if %[[MIN]] {
// TWO-NEXT:        linalg.copy ins(%[[B1]] : {{.*}}) outs(%[[BUF]] : {{.*}})
// TWO-NEXT:      }
// TWO-NEXT:      scf.if %[[IN]] {
// TWO-NEXT:        linalg.copy ins(%[[B2]] : {{.*}}) outs(%[[B1]] : {{.*}})
// TWO-NEXT:      }
// TWO-NEXT:    }
// TWO-NEXT:    memref.dealloc %[[B1]]
// TWO-NEXT:    memref.dealloc %[[B2]]

// Dynamic bounds: the copies before the loop are guarded by its bound
// (ByteIR's are not, and read past the end of %a when the loop is short).
// The source is computed in two steps from %i: both are cloned (ByteIR
// clones only the subview, which then uses %i's offset from the body).
// An integer tag gives the copy its own count (1) over the option's.
func.func @dynamic(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %half = arith.divui %n, %c2 : index
  %buf = memref.alloc() : memref<2xi32, 2>
  scf.for %i = %c0 to %half step %c1 {
    %off = arith.muli %i, %c2 : index
    %t = memref.subview %a[%off] [2] [1] : memref<?xi32> to memref<2xi32, strided<[1], offset: ?>>
    %o = memref.subview %out[%off] [2] [1] : memref<?xi32> to memref<2xi32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__ = 1 : i32} ins(%t : memref<2xi32, strided<[1], offset: ?>>) outs(%buf : memref<2xi32, 2>)
    linalg.add ins(%buf, %buf : memref<2xi32, 2>, memref<2xi32, 2>) outs(%o : memref<2xi32, strided<[1], offset: ?>>)
  }
  memref.dealloc %buf : memref<2xi32, 2>
  return
}
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[BUF:.*]] = memref.alloc() : memref<2xi32, 2 : i64>
// CHECK-NEXT:    %[[NEXT:.*]] = memref.alloc() : memref<2xi32, 2 : i64>
// CHECK-NEXT:    %[[RUNS:.*]] = arith.cmpi slt, %c0, %half : index
// CHECK-NEXT:    scf.if %[[RUNS]] {
// CHECK-NEXT:      %[[OFF0:.*]] = arith.muli %c0, %c2 : index
// CHECK-NEXT:      %[[T0:.*]] = memref.subview %a[%[[OFF0]]] [2] [1]
// CHECK-NEXT:      linalg.copy ins(%[[T0]] : {{.*}}) outs(%[[BUF]] : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for %i = %c0 to %half step %c1 {
// CHECK-NEXT:      %[[OFFI:.*]] = arith.muli %i, %c2 : index
// CHECK-NEXT:      %o = memref.subview %out[%[[OFFI]]] [2] [1]
// CHECK-NEXT:      %[[N:.*]] = arith.addi %i, %c1 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[N]], %half : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        %[[OFF:.*]] = arith.muli %[[N]], %c2 : index
// CHECK-NEXT:        %[[T:.*]] = memref.subview %a[%[[OFF]]] [2] [1]
// CHECK-NEXT:        linalg.copy ins(%[[T]] : {{.*}}) outs(%[[NEXT]] : {{.*}})
// CHECK-NEXT:      }
// CHECK-NEXT:      linalg.add ins(%[[BUF]], %[[BUF]] : {{.*}})

// A loop of fewer iterations than the count is left alone (as ByteIR
// does), and so are untagged copies.
func.func @short(%a: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c4 {
    %t = memref.subview %a[%i] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__ = 2 : i32} ins(%t : memref<4xf32, strided<[1], offset: ?>>) outs(%buf : memref<4xf32>)
    linalg.copy ins(%buf : memref<4xf32>) outs(%out : memref<4xf32>)
  }
  memref.dealloc %buf : memref<4xf32>
  return
}
// CHECK-LABEL: func.func @short
// CHECK:         linalg.copy {__byteir_prefetch__ = 2 : i32}
// CHECK-NOT:     memref.alloc
