// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.expand_shape and collapse_shape only describe the same memory
// differently: new sizes and strides, the same pointers and offset. What
// the result type fixes is a constant; the rest comes from the source's
// descriptor.

func.func @expand_static(%a: memref<12xf32>, %out: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %e = memref.expand_shape %a [[0, 1]] output_shape [3, 4] : memref<12xf32> into memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %e[%i, %j] : memref<3x4xf32>
      memref.store %v, %out[%i, %j] : memref<3x4xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @expand_static
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<12xf32> to
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[D1]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[THREE]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[FOUR]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[FOUR]], %[[D5]][4, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[D7:.*]] = llvm.insertvalue %[[ONE]], %[[D6]][4, 1]
// CHECK-NEXT:    %e = builtin.unrealized_conversion_cast %[[D7]] : {{.*}} to memref<3x4xf32>
// CHECK-NOT:     memref.expand_shape

func.func @collapse_static(%a: memref<3x4xf32>, %out: memref<12xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c = memref.collapse_shape %a [[0, 1]] : memref<3x4xf32> into memref<12xf32>
  scf.for %i = %c0 to %c12 step %c1 {
    %v = memref.load %c[%i] : memref<12xf32>
    memref.store %v, %out[%i] : memref<12xf32>
  }
  return
}
// CHECK-LABEL: func.func @collapse_static
// CHECK:         llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:         %[[TWELVE:.*]] = llvm.mlir.constant(12) : i64
// CHECK-NEXT:    llvm.insertvalue %[[TWELVE]], %{{.*}}[3, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    llvm.insertvalue %[[ONE]], %{{.*}}[4, 0]
// CHECK-NOT:     memref.collapse_shape

// A dynamic output size: the outer stride is 2 times the source's stride.
func.func @expand_dynamic(%a: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %len = memref.dim %a, %c0 : memref<?xf32>
  %n = arith.divui %len, %c2 : index
  %e = memref.expand_shape %a [[0, 1]] output_shape [%n, 2] : memref<?xf32> into memref<?x2xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %e[%i, %c1] : memref<?x2xf32>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @expand_dynamic
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK:         llvm.insertvalue %[[N]], %{{.*}}[3, 0]
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    llvm.insertvalue %[[TWO]], %{{.*}}[3, 1]
// CHECK-NEXT:    llvm.insertvalue %[[TWO]], %{{.*}}[4, 0]

// Expanding a memref of dynamic stride s into (?, 2): strides (2 * s, s).
func.func @expand_strided(%a: memref<?xf32, strided<[?], offset: ?>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %len = memref.dim %a, %c0 : memref<?xf32, strided<[?], offset: ?>>
  %n = arith.divui %len, %c2 : index
  %last = arith.subi %n, %c1 : index
  %e = memref.expand_shape %a [[0, 1]] output_shape [%n, 2] : memref<?xf32, strided<[?], offset: ?>> into memref<?x2xf32, strided<[?, ?], offset: ?>>
  %v = memref.load %e[%last, %c0] : memref<?x2xf32, strided<[?, ?], offset: ?>>
  return %v : f32
}
// CHECK-LABEL: func.func @expand_strided
// CHECK:         %last = arith.subi
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : {{.*}} to !llvm.struct
// CHECK-NEXT:    %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    %[[S:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[OUTER:.*]] = llvm.mul %[[S]], %[[TWO]] overflow<nsw> : i64
// CHECK:         %[[OFFSET:.*]] = llvm.extractvalue %[[A]][2]
// CHECK:         llvm.insertvalue %[[OFFSET]], %{{.*}}[2]
// CHECK:         llvm.insertvalue %[[OUTER]], %{{.*}}[4, 0]
// CHECK-NEXT:    llvm.insertvalue %[[S]], %{{.*}}[4, 1]

// Dynamic sizes: the collapsed size is their product.
func.func @collapse_dynamic(%a: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.collapse_shape %a [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %n = memref.dim %c, %c0 : memref<?xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %c[%i] : memref<?xf32>
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %p = arith.mulf %v, %f : f32
    %w = arith.addf %acc, %p : f32
    scf.yield %w : f32
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @collapse_dynamic
// CHECK:         %[[M:.*]] = llvm.extractvalue %[[A:.*]][3, 0]
// CHECK-NEXT:    %[[N:.*]] = llvm.extractvalue %[[A]][3, 1]
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mul %[[M]], %[[N]] overflow<nsw> : i64
// CHECK:         llvm.insertvalue %[[SIZE]], %{{.*}}[3, 0]

// Collapsing dimensions of a strided view: the group takes the stride of its
// innermost dimension whose extent is not 1 (static here, as the type says).
func.func @collapse_of_subview(%a: memref<4x6x8xf32>, %out: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %s = memref.subview %a[0, 1, 0] [4, 2, 8] [1, 1, 1] : memref<4x6x8xf32> to memref<4x2x8xf32, strided<[48, 8, 1], offset: 8>>
  %c = memref.collapse_shape %s [[0], [1, 2]] : memref<4x2x8xf32, strided<[48, 8, 1], offset: 8>> into memref<4x16xf32, strided<[48, 1], offset: 8>>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %c[%i, %j] : memref<4x16xf32, strided<[48, 1], offset: 8>>
      memref.store %v, %out[%i, %j] : memref<4x16xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @collapse_of_subview
// CHECK:         %c = builtin.unrealized_conversion_cast %[[C:.*]] : {{.*}} to memref<4x16xf32, strided<[48, 1], offset: 8>>
// CHECK:         %[[C48:.*]] = llvm.mlir.constant(48) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %{{.*}}, %[[C48]] overflow<nsw> : i64
// CHECK-NEXT:    %[[C8:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[AT0:.*]] = llvm.add %[[C8]], %[[ROW]] overflow<nsw> : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[AT0]], %{{.*}} overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[C]][1]
// CHECK-NEXT:    llvm.getelementptr inbounds %[[BASE]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32

// Dynamic strides and extents: the collapsed stride is the inner one's,
// unless that dimension has extent 1 at run time.
func.func @collapse_strided(%a: memref<?x?xf32, strided<[?, ?], offset: ?>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.collapse_shape %a [[0, 1]] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?xf32, strided<[?], offset: ?>>
  %n = memref.dim %c, %c0 : memref<?xf32, strided<[?], offset: ?>>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %c[%i] : memref<?xf32, strided<[?], offset: ?>>
    %k = arith.index_cast %i : index to i32
    %f = arith.sitofp %k : i32 to f32
    %p = arith.mulf %v, %f : f32
    %w = arith.addf %acc, %p : f32
    scf.yield %w : f32
  }
  return %sum : f32
}
// CHECK-LABEL: func.func @collapse_strided
// CHECK:         %[[M:.*]] = llvm.extractvalue %[[A:.*]][3, 0]
// CHECK-NEXT:    %[[N:.*]] = llvm.extractvalue %[[A]][3, 1]
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.mul %[[M]], %[[N]] overflow<nsw> : i64
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[UNIT:.*]] = llvm.icmp "eq" %[[N]], %[[ONE]] : i64
// CHECK-NEXT:    %[[S1:.*]] = llvm.extractvalue %[[A]][4, 1]
// CHECK-NEXT:    %[[STRIDE:.*]] = llvm.select %[[UNIT]], %[[S0]], %[[S1]] : i1, i64
// CHECK:         llvm.insertvalue %[[SIZE]], %{{.*}}[3, 0]
// CHECK-NEXT:    llvm.insertvalue %[[STRIDE]], %{{.*}}[4, 0]
