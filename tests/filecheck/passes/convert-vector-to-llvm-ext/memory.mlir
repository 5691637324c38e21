// vector.load / vector.store in finalize-memref-to-llvm: the address of the
// first lane as for memref.load (constants where the type fixes a field, the
// descriptor's fields otherwise), then one llvm.load / llvm.store of the
// whole vector, aligned to one element. Every access here is in bounds for
// the indices random inputs hold (0 to 3), so that test_pass_meaning can run
// each function on the interpreter and compiled natively.
// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

func.func @rows(%m: memref<4x16xf32>, %i: index, %j: index) {
  %v = vector.load %m[%i, %j] : memref<4x16xf32>, vector<8xf32>
  vector.store %v, %m[%j, %i] : memref<4x16xf32>, vector<8xf32>
  return
}
// CHECK-LABEL: func.func @rows
// CHECK:      %[[ROW:.*]] = llvm.mul %{{.*}}, %{{.*}} overflow<nsw> : i64
// CHECK-NEXT: %[[LINEAR:.*]] = llvm.add %[[ROW]], %{{.*}} overflow<nsw> : i64
// CHECK-NEXT: %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[LINEAR]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: %v = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK:      %[[TO:.*]] = llvm.getelementptr inbounds
// CHECK-NEXT: llvm.store %v, %[[TO]] {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr

// A view with a dynamic offset and row stride: both read from the
// descriptor; the constant column index adds nothing.
func.func @view(%m: memref<?x?xf64, strided<[?, 1], offset: ?>>, %i: index, %out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%i, %c0] : memref<?x?xf64, strided<[?, 1], offset: ?>>, vector<4xf64>
  vector.store %v, %out[%c0] : memref<4xf64>, vector<4xf64>
  return
}
// CHECK-LABEL: func.func @view
// CHECK:      %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %[[OFFSET:.*]] = llvm.extractvalue %{{.*}}[2]
// CHECK-NEXT: %[[STRIDE:.*]] = llvm.extractvalue %{{.*}}[4, 0]
// CHECK-NEXT: %[[ROW:.*]] = llvm.mul %[[I]], %[[STRIDE]] overflow<nsw> : i64
// CHECK-NEXT: %[[LINEAR:.*]] = llvm.add %[[OFFSET]], %[[ROW]] overflow<nsw> : i64
// CHECK-NEXT: %[[BASE:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr inbounds %[[BASE]][%[[LINEAR]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
// CHECK-NEXT: %v = llvm.load %[[PTR]] {alignment = 8 : i64} : !llvm.ptr -> vector<4xf64>
// CHECK:      %[[OUT:.*]] = llvm.extractvalue %{{.*}}[1]
// CHECK-NEXT: llvm.store %v, %[[OUT]] {alignment = 8 : i64} : vector<4xf64>, !llvm.ptr
