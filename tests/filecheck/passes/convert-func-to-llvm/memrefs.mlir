// A memref argument is passed as its descriptor's scalars (allocated and
// aligned pointer, offset, sizes, strides) and rebuilt into a descriptor at
// the top of the body; a memref result is returned as the descriptor; a
// call passes each memref operand's fields.
// RUN: xdsl-opt %s -p convert-func-to-llvm | filecheck %s

// CHECK:      llvm.func @copy_row(%[[AP:.*]]: !llvm.ptr, %[[AL:.*]]: !llvm.ptr, %[[OFF:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[T0:.*]]: i64, %[[T1:.*]]: i64, %[[OUT_AP:.*]]: !llvm.ptr, %[[OUT_AL:.*]]: !llvm.ptr, %[[OUT_OFF:.*]]: i64, %[[OUT_S:.*]]: i64, %[[OUT_T:.*]]: i64, %row: i64) {
// CHECK-NEXT:   %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:   %[[D1:.*]] = llvm.insertvalue %[[AP]], %[[D0]][0]
// CHECK-NEXT:   %[[D2:.*]] = llvm.insertvalue %[[AL]], %[[D1]][1]
// CHECK-NEXT:   %[[D3:.*]] = llvm.insertvalue %[[OFF]], %[[D2]][2]
// CHECK-NEXT:   %[[D4:.*]] = llvm.insertvalue %[[S0]], %[[D3]][3, 0]
// CHECK-NEXT:   %[[D5:.*]] = llvm.insertvalue %[[T0]], %[[D4]][4, 0]
// CHECK-NEXT:   %[[D6:.*]] = llvm.insertvalue %[[S1]], %[[D5]][3, 1]
// CHECK-NEXT:   %[[D7:.*]] = llvm.insertvalue %[[T1]], %[[D6]][4, 1]
// CHECK-NEXT:   %m = builtin.unrealized_conversion_cast %[[D7]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)> to memref<?x4xf32>
// CHECK-NEXT:   %[[E0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK:        %out = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> to memref<4xf32>
// CHECK-NEXT:   %[[ROW:.*]] = builtin.unrealized_conversion_cast %row : i64 to index
// CHECK:        memref.load %m[%{{.*}}, %{{.*}}] : memref<?x4xf32>
// CHECK:        llvm.return
func.func @copy_row(%m: memref<?x4xf32>, %out: memref<4xf32>, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %rows = memref.dim %m, %c0 : memref<?x4xf32>
  %last = arith.subi %rows, %c1 : index
  %r = arith.minui %row, %last : index
  scf.for %j = %c0 to %c4 step %c1 {
    %v = memref.load %m[%r, %j] : memref<?x4xf32>
    memref.store %v, %out[%j] : memref<4xf32>
  }
  return
}

// A rank-0 memref has no sizes nor strides; returning a memref returns its
// descriptor.
// CHECK:      llvm.func @pass_through(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)> {
// CHECK:        %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<f64> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:   llvm.return %[[D]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
func.func @pass_through(%s: memref<f64>) -> memref<f64> {
  return %s : memref<f64>
}

// The caller extracts every field of the descriptor, in the order of the
// callee's arguments, and casts the returned descriptor back to a memref.
// CHECK:      llvm.func @caller(
// CHECK:        %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?x4xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:   %[[F0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT:   %[[F1:.*]] = llvm.extractvalue %[[D]][1]
// CHECK-NEXT:   %[[F2:.*]] = llvm.extractvalue %[[D]][2]
// CHECK-NEXT:   %[[F3:.*]] = llvm.extractvalue %[[D]][3, 0]
// CHECK-NEXT:   %[[F4:.*]] = llvm.extractvalue %[[D]][3, 1]
// CHECK-NEXT:   %[[F5:.*]] = llvm.extractvalue %[[D]][4, 0]
// CHECK-NEXT:   %[[F6:.*]] = llvm.extractvalue %[[D]][4, 1]
// CHECK:        llvm.call @copy_row(%[[F0]], %[[F1]], %[[F2]], %[[F3]], %[[F4]], %[[F5]], %[[F6]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> ()
// CHECK:        %[[S:.*]] = llvm.call @pass_through(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:   %same = builtin.unrealized_conversion_cast %[[S]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)> to memref<f64>
func.func @caller(%m: memref<?x4xf32>, %out: memref<4xf32>, %s: memref<f64>) -> f64 {
  %c2 = arith.constant 2 : index
  func.call @copy_row(%m, %out, %c2) : (memref<?x4xf32>, memref<4xf32>, index) -> ()
  %same = func.call @pass_through(%s) : (memref<f64>) -> memref<f64>
  %v = memref.load %same[] : memref<f64>
  return %v : f64
}
