// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.subview builds the view's descriptor from its source's: the same
// pointers, offset + sum(offset_i * stride_i), the sizes, and the strides
// multiplied by the steps. What the result type fixes is a constant.

// Static: the result type says offset 17 and strides [16, 1]; loads from the
// view fold them into constants.
func.func @subview_static(%a: memref<8x8xf32>, %out: memref<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s = memref.subview %a[2, 1] [2, 3] [2, 1] : memref<8x8xf32> to memref<2x3xf32, strided<[16, 1], offset: 17>>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %s[%i, %j] : memref<2x3xf32, strided<[16, 1], offset: 17>>
      memref.store %v, %out[%i, %j] : memref<2x3xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @subview_static
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<8x8xf32> to
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[D1]][1]
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.mlir.constant(17) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[OFFSET]], %[[D2]][2]
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[TWO]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[THREE]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[SIXTEEN:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[SIXTEEN]], %[[D5]][4, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[D7:.*]] = llvm.insertvalue %[[ONE]], %[[D6]][4, 1]
// CHECK-NEXT:    %s = builtin.unrealized_conversion_cast %[[D7]]
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT:    %[[C16:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I]], %[[C16]] overflow<nsw> : i64
// CHECK-NEXT:    %[[C17:.*]] = llvm.mlir.constant(17) : i64
// CHECK-NEXT:    %[[AT0:.*]] = llvm.add %[[C17]], %[[ROW]] overflow<nsw> : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[AT0]], %[[J]] overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[D7]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32

// A subview of a subview with static layouts: element [1, 1] of the inner
// view is element 19 + 16 + 2 = 37 of %a, a constant address.
func.func @nested(%a: memref<8x8xf32>) -> f32 {
  %c1 = arith.constant 1 : index
  %s1 = memref.subview %a[1, 1] [6, 6] [1, 1] : memref<8x8xf32> to memref<6x6xf32, strided<[8, 1], offset: 9>>
  %s2 = memref.subview %s1[1, 2] [2, 2] [2, 2] : memref<6x6xf32, strided<[8, 1], offset: 9>> to memref<2x2xf32, strided<[16, 2], offset: 19>>
  %v = memref.load %s2[%c1, %c1] : memref<2x2xf32, strided<[16, 2], offset: 19>>
  return %v : f32
}
// CHECK-LABEL: func.func @nested
// CHECK:         %s1 = builtin.unrealized_conversion_cast
// CHECK:         %[[S2:.*]] = llvm.insertvalue %{{.*}}[4, 1]
// CHECK-NEXT:    %s2 = builtin.unrealized_conversion_cast %[[S2]]
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[S2]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][37] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32

// Dynamic offset, sizes and step: computed from the operands and the
// source's strides (1 and the dynamic row stride of a row-major memref).
func.func @subview_dynamic(%a: memref<?x?xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %o = arith.remui %i, %c2 : index
  %step = arith.addi %o, %c1 : index
  %n0 = memref.dim %a, %c0 : memref<?x?xf32>
  %n1 = memref.dim %a, %c1 : memref<?x?xf32>
  %rows = arith.subi %n0, %o : index
  %last = arith.subi %n1, %c1 : index
  %q = arith.divui %last, %step : index
  %cols = arith.addi %q, %c1 : index
  %s = memref.subview %a[%o, 0] [%rows, %cols] [1, %step] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %sum = scf.for %r = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (f32) {
    %inner = scf.for %c = %c0 to %cols step %c1 iter_args(%acc2 = %acc) -> (f32) {
      %v = memref.load %s[%r, %c] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %w = arith.addf %acc2, %v : f32
      scf.yield %w : f32
    }
    scf.yield %inner : f32
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @subview_dynamic
// CHECK:         %cols = arith.addi
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<?x?xf32> to
// CHECK-NEXT:    %[[O:.*]] = builtin.unrealized_conversion_cast %o : index to i64
// CHECK-NEXT:    %[[ROWS:.*]] = builtin.unrealized_conversion_cast %rows : index to i64
// CHECK-NEXT:    %[[COLS:.*]] = builtin.unrealized_conversion_cast %cols : index to i64
// CHECK-NEXT:    %[[STEP:.*]] = builtin.unrealized_conversion_cast %step : index to i64
// CHECK-NEXT:    %[[ROW_STRIDE:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.mul %[[O]], %[[ROW_STRIDE]] overflow<nsw> : i64
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[D1]][1]
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[OFFSET]], %[[D2]][2]
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[ROWS]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[COLS]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[ROW_STRIDE]], %[[D5]][4, 0]
// CHECK-NEXT:    %[[D7:.*]] = llvm.insertvalue %[[STEP]], %[[D6]][4, 1]

// Rank-reducing: the unit dimensions 0 and 2 are dropped; the kept one has
// the source's stride 8.
func.func @rank_reducing(%a: memref<4x6x8xf32>, %i: index, %out: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %s = memref.subview %a[%i, 0, 3] [1, 6, 1] [1, 1, 1] : memref<4x6x8xf32> to memref<6xf32, strided<[8], offset: ?>>
  scf.for %k = %c0 to %c6 step %c1 {
    %v = memref.load %s[%k] : memref<6xf32, strided<[8], offset: ?>>
    memref.store %v, %out[%k] : memref<6xf32>
  }
  return
}
// CHECK-LABEL: func.func @rank_reducing
// CHECK:         %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[C48:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[T:.*]] = llvm.mul %[[I]], %[[C48]] overflow<nsw> : i64
// CHECK-NEXT:    %[[C3:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.add %[[T]], %[[C3]] overflow<nsw> : i64
// CHECK:         %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         llvm.insertvalue %[[OFFSET]], %{{.*}}[2]
// CHECK-NEXT:    %[[C6:.*]] = llvm.mlir.constant(6) : i64
// CHECK-NEXT:    llvm.insertvalue %[[C6]], %{{.*}}[3, 0]
// CHECK-NEXT:    %[[C8:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    llvm.insertvalue %[[C8]], %{{.*}}[4, 0]

// A view of a view whose layout is only known at run time.
func.func @subview_of_strided(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>) -> f32 {
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[1, 1] [2, 2] [1, 1] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  %v = memref.load %s[%c1, %c1] : memref<2x2xf32, strided<[?, ?], offset: ?>>
  return %v : f32
}
// CHECK-LABEL: func.func @subview_of_strided
// CHECK:         %[[OFFSET:.*]] = llvm.extractvalue %[[A:.*]][2]
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[T0:.*]] = llvm.add %[[OFFSET]], %[[S0]] overflow<nsw> : i64
// CHECK-NEXT:    %[[S1:.*]] = llvm.extractvalue %[[A]][4, 1]
// CHECK-NEXT:    %[[T1:.*]] = llvm.add %[[T0]], %[[S1]] overflow<nsw> : i64
// CHECK:         llvm.insertvalue %[[T1]], %{{.*}}[2]
// CHECK:         llvm.insertvalue %[[S0]], %{{.*}}[4, 0]
// CHECK-NEXT:    llvm.insertvalue %[[S1]], %{{.*}}[4, 1]
