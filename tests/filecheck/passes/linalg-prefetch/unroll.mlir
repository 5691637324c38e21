// With unroll, each step of the loop runs count + 1 iterations, each on its
// own buffer: no buffer moves. ByteIR's tiled matmul, small.
// RUN: xdsl-opt %s -p "linalg-prefetch{count=2 unroll=true}" | filecheck %s

func.func @matmul_tiled(%a: memref<6x2xf32>, %b: memref<2x2xf32>, %c: memref<6x2xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %0 = memref.alloc() : memref<2x2xf32, 1>
  %1 = memref.alloc() : memref<2x2xf32, 2>
  %2 = memref.alloc() : memref<2x2xf32, 3>
  scf.for %i = %c0 to %c6 step %c2 {
    %3 = memref.subview %a[%i, 0] [2, 2] [1, 1] : memref<6x2xf32> to memref<2x2xf32, strided<[2, 1], offset: ?>>
    %4 = memref.subview %c[%i, 0] [2, 2] [1, 1] : memref<6x2xf32> to memref<2x2xf32, strided<[2, 1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%3 : memref<2x2xf32, strided<[2, 1], offset: ?>>) outs(%0 : memref<2x2xf32, 1>)
    linalg.copy ins(%b : memref<2x2xf32>) outs(%1 : memref<2x2xf32, 2>)
    linalg.fill ins(%zero : f32) outs(%2 : memref<2x2xf32, 3>)
    linalg.matmul ins(%0, %1 : memref<2x2xf32, 1>, memref<2x2xf32, 2>) outs(%2 : memref<2x2xf32, 3>)
    linalg.copy ins(%2 : memref<2x2xf32, 3>) outs(%4 : memref<2x2xf32, strided<[2, 1], offset: ?>>)
  }
  memref.dealloc %0 : memref<2x2xf32, 1>
  memref.dealloc %1 : memref<2x2xf32, 2>
  memref.dealloc %2 : memref<2x2xf32, 3>
  return
}
// Tiles 0 and 1 before the loop, into %0 and a new buffer; a third buffer
// takes the tile two iterations ahead. Iteration j of a step reads buffer j
// and prefetches into buffer j - 1 (mod 3), which it no longer needs.
// CHECK-LABEL: func.func @matmul_tiled
// CHECK:         %[[B0:.*]] = memref.alloc() : memref<2x2xf32, 1 : i64>
// CHECK:         %[[B1:.*]] = memref.alloc() : memref<2x2xf32, 1 : i64>
// CHECK-NEXT:    %[[B2:.*]] = memref.alloc() : memref<2x2xf32, 1 : i64>
// CHECK-NEXT:    %[[T0:.*]] = memref.subview %a[%c0, 0]
// CHECK-NEXT:    linalg.copy ins(%[[T0]] : {{.*}}) outs(%[[B0]] : {{.*}})
// CHECK-NEXT:    %[[I1:.*]] = arith.addi %c0, %c2 : index
// CHECK-NEXT:    %[[T1:.*]] = memref.subview %a[%[[I1]], 0]
// CHECK-NEXT:    linalg.copy ins(%[[T1]] : {{.*}}) outs(%[[B1]] : {{.*}})
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 6 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c6 step %[[STEP]] {
// CHECK:           scf.if
// CHECK:             linalg.copy ins(%{{.*}} : {{.*}}) outs(%[[B2]] : {{.*}})
// CHECK:           linalg.matmul ins(%[[B0]], %{{.*}} : {{.*}})
// CHECK:           %[[J1:.*]] = arith.addi %i, %c2 : index
// CHECK-NEXT:      %[[IN1:.*]] = arith.cmpi slt, %[[J1]], %c6 : index
// CHECK-NEXT:      scf.if %[[IN1]] {
// CHECK:             scf.if
// CHECK:               linalg.copy ins(%{{.*}} : {{.*}}) outs(%[[B0]] : {{.*}})
// CHECK:             linalg.matmul ins(%[[B1]], %{{.*}} : {{.*}})
// CHECK:           scf.if
// CHECK:             scf.if
// CHECK:               linalg.copy ins(%{{.*}} : {{.*}}) outs(%[[B1]] : {{.*}})
// CHECK:             linalg.matmul ins(%[[B2]], %{{.*}} : {{.*}})
// CHECK:         memref.dealloc %[[B1]]
// CHECK-NEXT:    memref.dealloc %[[B2]]
