// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.load/store: one getelementptr off the aligned pointer, at
// offset + sum(index * stride) elements. Whatever the type fixes (a static
// shape, a row-major layout, a static offset) is a constant.

// Row-major, static shape: strides 8 and 1 are constants, the offset is 0;
// only the aligned pointer is read from the descriptor.
func.func @static_identity(%a: memref<4x8xf32>, %out: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
      memref.store %v, %out[%j, %i] : memref<8x4xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @static_identity
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<4x8xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %[[I]], %[[EIGHT]] overflow<nsw> : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[ROW]], %[[J]] overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:         %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[ROW2:.*]] = llvm.mul %{{.*}}, %[[FOUR]] overflow<nsw> : i64
// CHECK-NEXT:    %[[AT2:.*]] = llvm.add %[[ROW2]], %{{.*}} overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE2:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr inbounds %[[BASE2]][%[[AT2]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.store %v, %[[P2]] : f32, !llvm.ptr
// CHECK-NOT:     memref.

// Constant indices fold into a constant element offset.
func.func @constant_indices(%a: memref<4x8xf32>) -> f32 {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %a[%c2, %c3] : memref<4x8xf32>
  return %v : f32
}
// CHECK-LABEL: func.func @constant_indices
// CHECK:         %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][19] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32

// Row-major with dynamic sizes: the outer stride is read from the
// descriptor, the inner one is 1.
func.func @dynamic_identity(%a: memref<?x?xf64>, %out: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %w = arith.addf %v, %v : f64
      memref.store %w, %out[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
// CHECK-LABEL: func.func @dynamic_identity
// CHECK:         %[[STRIDE:.*]] = llvm.extractvalue %[[A:.*]][4, 0]
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %{{.*}}, %[[STRIDE]] overflow<nsw> : i64
// CHECK-NEXT:    %[[AT:.*]] = llvm.add %[[ROW]], %{{.*}} overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[AT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f64

// A fully dynamic layout: offset and both strides come from the descriptor.
func.func @strided(%a: memref<?x?xi32, strided<[?, ?], offset: ?>>, %out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i, %i] : memref<?x?xi32, strided<[?, ?], offset: ?>>
    memref.store %v, %out[%i] : memref<4xi32>
  }
  return
}
// CHECK-LABEL: func.func @strided
// CHECK:         %[[OFFSET:.*]] = llvm.extractvalue %[[A:.*]][2]
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[T0:.*]] = llvm.mul %{{.*}}, %[[S0]] overflow<nsw> : i64
// CHECK-NEXT:    %[[U0:.*]] = llvm.add %[[OFFSET]], %[[T0]] overflow<nsw> : i64
// CHECK-NEXT:    %[[S1:.*]] = llvm.extractvalue %[[A]][4, 1]
// CHECK-NEXT:    %[[T1:.*]] = llvm.mul %{{.*}}, %[[S1]] overflow<nsw> : i64
// CHECK-NEXT:    %[[U1:.*]] = llvm.add %[[U0]], %[[T1]] overflow<nsw> : i64
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[U1]]] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> i32

// Every element type: index is i64 in memory, i1 one byte.
func.func @element_types(%a: memref<4xi1>, %b: memref<4xi8>, %c: memref<4xi16>,
                         %d: memref<4xf16>, %e: memref<4xindex>, %f: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %va = memref.load %a[%c3] : memref<4xi1>
  memref.store %va, %a[%c0] : memref<4xi1>
  %vb = memref.load %b[%c3] : memref<4xi8>
  memref.store %vb, %b[%c0] : memref<4xi8>
  %vc = memref.load %c[%c3] : memref<4xi16>
  memref.store %vc, %c[%c0] : memref<4xi16>
  %vd = memref.load %d[%c3] : memref<4xf16>
  memref.store %vd, %d[%c0] : memref<4xf16>
  %ve = memref.load %e[%c3] : memref<4xindex>
  memref.store %ve, %e[%c0] : memref<4xindex>
  %vf = memref.load %f[%c3] : memref<4xi64>
  memref.store %vf, %f[%c0] : memref<4xi64>
  return
}
// CHECK-LABEL: func.func @element_types
// CHECK:         llvm.getelementptr inbounds %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, i1
// CHECK:         llvm.store %va, %{{.*}} : i1, !llvm.ptr
// CHECK:         llvm.getelementptr inbounds %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         llvm.getelementptr inbounds %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, i16
// CHECK:         llvm.getelementptr inbounds %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, f16
// CHECK:         %[[E:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT:    %ve = builtin.unrealized_conversion_cast %[[E]] : i64 to index
// CHECK:         llvm.store %[[E]], %{{.*}} : i64, !llvm.ptr
// CHECK:         llvm.getelementptr inbounds %{{.*}}[3] : (!llvm.ptr) -> !llvm.ptr, i64

// Rank 0: the element is at the aligned pointer itself.
func.func @rank0(%a: memref<f32>, %b: memref<f32>) {
  %v = memref.load %a[] : memref<f32>
  memref.store %v, %b[] : memref<f32>
  return
}
// CHECK-LABEL: func.func @rank0
// CHECK:         %[[P:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK:         %[[Q:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:    llvm.store %v, %[[Q]] : f32, !llvm.ptr
