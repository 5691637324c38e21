// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// memref.global becomes an llvm.mlir.global of a flat array (its dense
// initializer flattened, a splat kept a splat); memref.get_global takes its
// address into a descriptor of static sizes and strides whose allocated
// pointer is 0xdeadbeef: a global is never freed.

"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<[1.0, 2.0, 4.0, 8.0]> : tensor<4xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "matrix", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, constant, alignment = 64 : i64}> : () -> ()
"memref.global"() <{sym_name = "ones", sym_visibility = "private", type = memref<8xi32>, initial_value = dense<1> : tensor<8xi32>, constant}> : () -> ()
"memref.global"() <{sym_name = "scratch", sym_visibility = "public", type = memref<4xf64>, initial_value = dense<0.0> : tensor<4xf64>}> : () -> ()
"memref.global"() <{sym_name = "flags", sym_visibility = "private", type = memref<4xi1>, initial_value = dense<[true, false, true, true]> : tensor<4xi1>, constant}> : () -> ()
"memref.global"() <{sym_name = "offsets", sym_visibility = "private", type = memref<3xindex>, initial_value = dense<[5, 7, 9]> : tensor<3xindex>, constant}> : () -> ()
"memref.global"() <{sym_name = "halves", sym_visibility = "private", type = memref<2xf16>, initial_value = dense<[1.5, -2.0]> : tensor<2xf16>, constant}> : () -> ()

// CHECK:      llvm.mlir.global private constant @table(dense<[1.000000e+00, 2.000000e+00, 4.000000e+00, 8.000000e+00]> : tensor<4xf32>) {addr_space = 0 : i32} : !llvm.array<4 x f32>
// CHECK-NEXT: llvm.mlir.global private constant @matrix(dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x f32>
// CHECK-NEXT: llvm.mlir.global private constant @ones(dense<1> : tensor<8xi32>) {addr_space = 0 : i32} : !llvm.array<8 x i32>
// CHECK-NEXT: llvm.mlir.global external @scratch(dense<0.000000e+00> : tensor<4xf64>) {addr_space = 0 : i32} : !llvm.array<4 x f64>
// CHECK-NEXT: llvm.mlir.global private constant @flags(dense<[true, false, true, true]> : tensor<4xi1>) {addr_space = 0 : i32} : !llvm.array<4 x i1>
// CHECK-NEXT: llvm.mlir.global private constant @offsets(dense<[5, 7, 9]> : tensor<3xi64>) {addr_space = 0 : i32} : !llvm.array<3 x i64>
// CHECK-NEXT: llvm.mlir.global private constant @halves(dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>) {addr_space = 0 : i32} : !llvm.array<2 x f16>

func.func @read_table(%i: index) -> f32 {
  %t = memref.get_global @table : memref<4xf32>
  %v = memref.load %t[%i] : memref<4xf32>
  return %v : f32
}
// CHECK-LABEL: func.func @read_table
// CHECK:         %[[ADDRESS:.*]] = llvm.mlir.addressof @table : !llvm.ptr
// CHECK-NEXT:    %[[MARK:.*]] = llvm.mlir.constant(3735928559) : i64
// CHECK-NEXT:    %[[DEAD:.*]] = llvm.inttoptr %[[MARK]] : i64 to !llvm.ptr
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[DEAD]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ADDRESS]], %[[D1]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[FOUR]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[ONE]], %[[D4]][4, 0]
// CHECK-NEXT:    %t = builtin.unrealized_conversion_cast %[[D5]] : {{.*}} to memref<4xf32>

func.func @transpose_matrix(%out: memref<3x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.get_global @matrix : memref<2x3xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %m[%i, %j] : memref<2x3xf32>
      memref.store %v, %out[%j, %i] : memref<3x2xf32>
    }
  }
  return
}
// CHECK-LABEL: func.func @transpose_matrix
// CHECK:         llvm.mlir.addressof @matrix : !llvm.ptr
// CHECK:         %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    llvm.insertvalue %[[THREE]], %{{.*}}[3, 1]
// CHECK-NEXT:    llvm.insertvalue %[[THREE]], %{{.*}}[4, 0]

func.func @sum_ones() -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %g = memref.get_global @ones : memref<8xi32>
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %g[%i] : memref<8xi32>
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  return %sum : i32
}
// CHECK-LABEL: func.func @sum_ones
// CHECK:         llvm.mlir.addressof @ones : !llvm.ptr

// A global that is written: the same memory is read back.
func.func @write_scratch(%i: index, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @scratch : memref<4xf64>
  memref.store %x, %g[%i] : memref<4xf64>
  %v = memref.load %g[%i] : memref<4xf64>
  %w = memref.load %g[%c0] : memref<4xf64>
  %s = arith.addf %v, %w : f64
  return %s : f64
}
// CHECK-LABEL: func.func @write_scratch
// CHECK:         %[[ADDRESS:.*]] = llvm.mlir.addressof @scratch : !llvm.ptr
// CHECK:         llvm.store %x, %{{.*}} : f64, !llvm.ptr

func.func @elements(%i: index, %out: memref<2xf16>) -> (i1, index) {
  %f = memref.get_global @flags : memref<4xi1>
  %o = memref.get_global @offsets : memref<3xindex>
  %h = memref.get_global @halves : memref<2xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %j = arith.remui %i, %c3 : index
  %b = memref.load %f[%i] : memref<4xi1>
  %k = memref.load %o[%j] : memref<3xindex>
  %h0 = memref.load %h[%c0] : memref<2xf16>
  %h1 = memref.load %h[%c1] : memref<2xf16>
  memref.store %h1, %out[%c0] : memref<2xf16>
  memref.store %h0, %out[%c1] : memref<2xf16>
  return %b, %k : i1, index
}
// CHECK-LABEL: func.func @elements
// CHECK:         %b = llvm.load %{{.*}} : !llvm.ptr -> i1
// CHECK:         %[[K:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK-NEXT:    %k = builtin.unrealized_conversion_cast %[[K]] : i64 to index
// CHECK:         %h0 = llvm.load %{{.*}} : !llvm.ptr -> f16
