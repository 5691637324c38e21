// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.cast keeps the descriptor (only static facts change); memref.dim
// is a constant when the type knows the size, else a field of the
// descriptor (chosen with selects when the dimension is only known at run
// time).

func.func @cast_and_dim(%a: memref<4x?xf32>, %k: index) -> (index, index, index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %dynamic = "memref.cast"(%a) : (memref<4x?xf32>) -> memref<?x?xf32>
  %rows = memref.dim %dynamic, %c0 : memref<?x?xf32>
  %static_rows = memref.dim %a, %c0 : memref<4x?xf32>
  %which = arith.remui %k, %c2 : index
  %size = memref.dim %a, %which : memref<4x?xf32>
  %static = "memref.cast"(%dynamic) : (memref<?x?xf32>) -> memref<4x4xf32>
  %v = memref.load %static[%c1, %c2] : memref<4x4xf32>
  %r = arith.addi %rows, %static_rows : index
  return %r, %size, %which, %v : index, index, index, f32
}
// CHECK-LABEL: func.func @cast_and_dim
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<4x?xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %dynamic = builtin.unrealized_conversion_cast %[[A]] : {{.*}} to memref<?x?xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = llvm.extractvalue %[[A]][3, 0]
// CHECK-NEXT:    %rows = builtin.unrealized_conversion_cast %[[ROWS]] : i64 to index
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %static_rows = builtin.unrealized_conversion_cast %[[FOUR]] : i64 to index
// CHECK:         %[[WHICH:.*]] = builtin.unrealized_conversion_cast %which : index to i64
// CHECK-NEXT:    %[[A2:.*]] = builtin.unrealized_conversion_cast %a : memref<4x?xf32> to
// CHECK-NEXT:    %[[COLS:.*]] = llvm.extractvalue %[[A2]][3, 1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[IS0:.*]] = llvm.icmp "eq" %[[WHICH]], %[[ZERO]] : i64
// CHECK-NEXT:    %[[FOUR2:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[SIZE:.*]] = llvm.select %[[IS0]], %[[FOUR2]], %[[COLS]] : i1, i64
// CHECK-NEXT:    %size = builtin.unrealized_conversion_cast %[[SIZE]] : i64 to index
// CHECK-NEXT:    %static = builtin.unrealized_conversion_cast %[[A]] : {{.*}} to memref<4x4xf32>
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[BASE]][6] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] : !llvm.ptr -> f32
// CHECK-NOT:     memref.

// A cast to a fully dynamic layout: loads then read offset and strides.
func.func @cast_to_strided(%a: memref<4x4xf32>, %i: index) -> f32 {
  %s = "memref.cast"(%a) : (memref<4x4xf32>) -> memref<4x4xf32, strided<[?, ?], offset: ?>>
  %v = memref.load %s[%i, %i] : memref<4x4xf32, strided<[?, ?], offset: ?>>
  return %v : f32
}
// CHECK-LABEL: func.func @cast_to_strided
// CHECK:         %s = builtin.unrealized_conversion_cast %[[A:.*]] : {{.*}} to memref<4x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[I2:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.extractvalue %[[A]][2]
// CHECK-NEXT:    %[[S0:.*]] = llvm.extractvalue %[[A]][4, 0]
