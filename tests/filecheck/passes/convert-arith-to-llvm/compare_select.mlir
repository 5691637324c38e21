// Comparisons keep their predicate (cmpf's `false`/`true` are spelled
// `_false`/`_true` in the llvm dialect); select picks scalars, or whole
// memref descriptors.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @cmpi
func.func @cmpi(%a: i32, %b: i32, %i: index, %j: index) -> (i1, i1, i1, i1) {
  %lt = arith.cmpi slt, %a, %b : i32
  %ge = arith.cmpi uge, %a, %b : i32
  %eq = arith.cmpi eq, %a, %b : i32
  %below = arith.cmpi ult, %i, %j : index
  return %lt, %ge, %eq, %below : i1, i1, i1, i1
}
// CHECK-NEXT: %lt = llvm.icmp "slt" %a, %b : i32
// CHECK-NEXT: %ge = llvm.icmp "uge" %a, %b : i32
// CHECK-NEXT: %eq = llvm.icmp "eq" %a, %b : i32
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT: %below = llvm.icmp "ult" %[[I]], %[[J]] : i64
// CHECK-NEXT: func.return %lt, %ge, %eq, %below : i1, i1, i1, i1

// CHECK-LABEL: func.func @cmpf
func.func @cmpf(%a: f32, %b: f32) -> (i1, i1, i1, i1, i1) {
  %olt = arith.cmpf olt, %a, %b : f32
  %une = arith.cmpf une, %a, %b : f32
  %uno = arith.cmpf uno, %a, %b : f32
  %never = arith.cmpf false, %a, %b : f32
  %always = arith.cmpf true, %a, %b : f32
  return %olt, %une, %uno, %never, %always : i1, i1, i1, i1, i1
}
// CHECK-NEXT: %olt = llvm.fcmp "olt" %a, %b : f32
// CHECK-NEXT: %une = llvm.fcmp "une" %a, %b : f32
// CHECK-NEXT: %uno = llvm.fcmp "uno" %a, %b : f32
// CHECK-NEXT: %never = llvm.fcmp "_false" %a, %b : f32
// CHECK-NEXT: %always = llvm.fcmp "_true" %a, %b : f32

// CHECK-LABEL: func.func @select
func.func @select(%c: i1, %a: f64, %b: f64, %i: index, %j: index) -> (f64, index) {
  %x = arith.select %c, %a, %b : f64
  %k = arith.select %c, %i, %j : index
  return %x, %k : f64, index
}
// CHECK-NEXT: %x = llvm.select %c, %a, %b : i1, f64
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT: %[[K:.*]] = llvm.select %c, %[[I]], %[[J]] : i1, i64
// CHECK-NEXT: %k = builtin.unrealized_conversion_cast %[[K]] : i64 to index

// Selecting a memref selects its descriptor.
// CHECK-LABEL: func.func @select_memref
func.func @select_memref(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>, %out: memref<4xf32>) {
  %m = arith.select %c, %a, %b : memref<4xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<4xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b : memref<4xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT: %[[M:.*]] = llvm.select %c, %[[A]], %[[B]] : i1, !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT: %m = builtin.unrealized_conversion_cast %[[M]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> to memref<4xf32>
// CHECK:      %v = memref.load %m[%{{.*}}] : memref<4xf32>
