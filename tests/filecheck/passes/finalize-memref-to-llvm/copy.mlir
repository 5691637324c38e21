// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.copy: one llvm.intr.memcpy when both memrefs are contiguous, else
// a loop nest in the llvm dialect whose body copies the last dimensions both
// hold contiguously with one memcpy (an element with a load and a store when
// there are none); when only the descriptors can tell, both, chosen at run
// time.

// Row-major static shapes: memcpy of a constant 128 bytes from the start of
// each buffer.
func.func @copy_contiguous(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  "memref.copy"(%a, %b) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_contiguous
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<4x8xf32> to
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %b : memref<4x8xf32> to
// CHECK-NEXT:    %[[FROM:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[TO:.*]] = llvm.extractvalue %[[B]][1]
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[TO]], %[[FROM]], %[[SIZE]]) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    func.return

// Row-major dynamic shapes: the byte size is the product of the sizes.
func.func @copy_dynamic(%a: memref<?x?xf64>, %b: memref<?x?xf64>) {
  "memref.copy"(%a, %b) : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_dynamic
// CHECK:         %[[M:.*]] = llvm.extractvalue %[[A:.*]][3, 0]
// CHECK-NEXT:    %[[N:.*]] = llvm.extractvalue %[[A]][3, 1]
// CHECK-NEXT:    %[[COUNT:.*]] = llvm.mul %[[M]], %[[N]] overflow<nsw> : i64
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mul %[[COUNT]], %[[EIGHT]] overflow<nsw> : i64
// CHECK:         "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %[[SIZE]])
// CHECK-NOT:     llvm.br

// Rank 0: one element.
func.func @copy_scalar(%a: memref<f32>, %b: memref<f32>) {
  "memref.copy"(%a, %b) : (memref<f32>, memref<f32>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_scalar
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(4) : i64
// CHECK:         "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %[[SIZE]])

// A strided source whose rows are contiguous: a loop over the 4 rows, one
// memcpy of 16 bytes each, from offset 10 + 8 i to 4 i.
func.func @copy_strided(%a: memref<8x8xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[1, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 10>>
  "memref.copy"(%s, %b) : (memref<4x4xf32, strided<[8, 1], offset: 10>>, memref<4x4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_strided
// CHECK:         %s = builtin.unrealized_conversion_cast %[[S:.*]] : {{.*}} to memref<4x4xf32, strided<[8, 1], offset: 10>>
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %b : {{.*}} to !llvm.struct
// CHECK-NEXT:    %[[FROM:.*]] = llvm.extractvalue %[[S]][1]
// CHECK-NEXT:    %[[TO:.*]] = llvm.extractvalue %[[B]][1]
// CHECK-NEXT:    %[[ROW_BYTES:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    llvm.br ^[[LOOP:.*]](%[[ZERO]] : i64)
// CHECK-NEXT:  ^[[LOOP]](%[[I:[^:]*]]: i64):
// CHECK-NEXT:    %[[I_IN:.*]] = llvm.icmp "slt" %[[I]], %[[FOUR]] : i64
// CHECK-NEXT:    llvm.cond_br %[[I_IN]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %[[FOUR2:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[AT2:.*]] = llvm.mul %[[I]], %[[FOUR2]] overflow<nsw> : i64
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %[[TO]][%[[AT2]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I]], %[[EIGHT]] overflow<nsw> : i64
// CHECK-NEXT:    %[[TEN:.*]] = llvm.mlir.constant(10) : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[TEN]], %[[ROW]] overflow<nsw> : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[FROM]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    "llvm.intr.memcpy"(%[[Q]], %[[P]], %[[ROW_BYTES]]) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT:    llvm.br ^[[LATCH:.*]]
// CHECK-NEXT:  ^[[LATCH]]:
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[I_NEXT:.*]] = llvm.add %[[I]], %[[ONE]] overflow<nsw> : i64
// CHECK-NEXT:    llvm.br ^[[LOOP]](%[[I_NEXT]] : i64)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    func.return

// A padded image's interior: the last dimension is contiguous in both (the
// image's rows in the bigger buffer), the one before is not: loops over
// 2 x 3 rows, a memcpy of 5 elements each.
func.func @copy_into_padded(%a: memref<2x3x5xf32>, %b: memref<2x5x7xf32>) {
  %s = memref.subview %b[0, 1, 1] [2, 3, 5] [1, 1, 1] : memref<2x5x7xf32> to memref<2x3x5xf32, strided<[35, 7, 1], offset: 8>>
  "memref.copy"(%a, %s) : (memref<2x3x5xf32>, memref<2x3x5xf32, strided<[35, 7, 1], offset: 8>>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_into_padded
// CHECK:         %[[ROW_BYTES:.*]] = llvm.mlir.constant(20) : i64
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK-NOT:     llvm.icmp "slt"
// CHECK:         "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %[[ROW_BYTES]])
// CHECK-NOT:     llvm.load
// CHECK:         func.return

// Strided in both dimensions: no contiguous rows, a loop nest of loads and
// stores.
func.func @copy_every_other(%a: memref<8x8xf32>, %b: memref<4x4xf32>) {
  %s = memref.subview %a[0, 0] [4, 4] [2, 2] : memref<8x8xf32> to memref<4x4xf32, strided<[16, 2]>>
  "memref.copy"(%s, %b) : (memref<4x4xf32, strided<[16, 2]>>, memref<4x4xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_every_other
// CHECK-COUNT-2: llvm.icmp "slt"
// CHECK:         %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr
// CHECK-NOT:     llvm.intr.memcpy
// CHECK:         func.return

// Into a strided view of i1: loops too, one byte per element.
func.func @copy_into_strided(%a: memref<4x2xi1>, %b: memref<4x6xi1>) {
  %s = memref.subview %b[0, 1] [4, 2] [1, 2] : memref<4x6xi1> to memref<4x2xi1, strided<[6, 2], offset: 1>>
  "memref.copy"(%a, %s) : (memref<4x2xi1>, memref<4x2xi1, strided<[6, 2], offset: 1>>) -> ()
  return
}
// CHECK-LABEL: func.func @copy_into_strided
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> i1
// CHECK:         llvm.store %{{.*}}, %{{.*}} : i1, !llvm.ptr
// CHECK-NOT:     llvm.intr.memcpy
// CHECK:         func.return

// Strides known only at run time: a contiguity check picks memcpy or the
// loops. A step of 2 (odd %k) takes the loops.
func.func @copy_runtime(%a: memref<?x?xf32>, %k: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = arith.remui %k, %c2 : index
  %step = arith.addi %r, %c1 : index
  %n0 = memref.dim %a, %c0 : memref<?x?xf32>
  %n1 = memref.dim %a, %c1 : memref<?x?xf32>
  %last = arith.subi %n1, %c1 : index
  %q = arith.divui %last, %step : index
  %cols = arith.addi %q, %c1 : index
  %s = memref.subview %a[0, 0] [%n0, %cols] [1, %step] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?]>>
  %t = memref.alloc(%n0, %cols) : memref<?x?xf32>
  "memref.copy"(%s, %t) : (memref<?x?xf32, strided<[?, ?]>>, memref<?x?xf32>) -> ()
  return %t : memref<?x?xf32>
}
// CHECK-LABEL: func.func @copy_runtime
// CHECK:         %t = builtin.unrealized_conversion_cast
// CHECK-NEXT:    %[[N0:.*]] = llvm.extractvalue %[[S:.*]][3, 0]
// CHECK-NEXT:    %[[N1:.*]] = llvm.extractvalue %[[S]][3, 1]
// CHECK-NEXT:    %[[S1:.*]] = llvm.extractvalue %[[S]][4, 1]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[INNER_OK:.*]] = llvm.icmp "eq" %[[S1]], %[[ONE]] : i64
// CHECK-NEXT:    %[[INNER_UNIT:.*]] = llvm.icmp "eq" %[[N1]], %[[ONE]] : i64
// CHECK-NEXT:    %[[INNER:.*]] = llvm.or %[[INNER_OK]], %[[INNER_UNIT]] : i1
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[S]][4, 0]
// CHECK-NEXT:    %[[OUTER_OK:.*]] = llvm.icmp "eq" %[[S0]], %[[N1]] : i64
// CHECK-NEXT:    %[[OUTER_UNIT:.*]] = llvm.icmp "eq" %[[N0]], %[[ONE]] : i64
// CHECK-NEXT:    %[[OUTER:.*]] = llvm.or %[[OUTER_OK]], %[[OUTER_UNIT]] : i1
// CHECK-NEXT:    %[[BOTH:.*]] = llvm.and %[[INNER]], %[[OUTER]] : i1
// CHECK-NEXT:    %[[COUNT:.*]] = llvm.mul %[[N0]], %[[N1]] overflow<nsw> : i64
// CHECK:         llvm.cond_br %[[BOTH]], ^[[FAST:.*]], ^[[SLOW:.*]]
// CHECK-NEXT:  ^[[FAST]]:
// CHECK-NEXT:    "llvm.intr.memcpy"
// CHECK-NEXT:    llvm.br ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[SLOW]]:
// CHECK:         llvm.br ^[[LOOP:.*]](%{{.*}} : i64)
// CHECK:         llvm.cond_br %{{.*}}, ^{{.*}}, ^[[EXIT]]
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    func.return %t
