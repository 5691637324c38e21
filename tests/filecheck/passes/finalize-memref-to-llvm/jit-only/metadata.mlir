// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// The ops here have no interpreter semantics, so test_pass_meaning (which
// runs every input of the parent directory on the interpreter) cannot check
// them; tests/unit/test_finalize_memref_to_llvm.py runs these functions
// natively and compares with numpy instead.

// memref.reinterpret_cast: the source's pointers, the given offset, sizes
// and strides.
func.func @reinterpret(%a: memref<12xf32>, %n: index) -> f32 {
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %a to offset: [2], sizes: [%n, 3], strides: [3, 1] : memref<12xf32> to memref<?x3xf32, strided<[3, 1], offset: 2>>
  %v = memref.load %r[%c1, %c1] : memref<?x3xf32, strided<[3, 1], offset: 2>>
  return %v : f32
}
// CHECK-LABEL: func.func @reinterpret
// CHECK:         %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<12xf32> to
// CHECK-NEXT:    %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[D1]][1]
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[TWO]], %[[D2]][2]
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[N]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[THREE:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[THREE]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[THREE]], %[[D5]][4, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[D7:.*]] = llvm.insertvalue %[[ONE]], %[[D6]][4, 1]
// CHECK-NEXT:    %r = builtin.unrealized_conversion_cast %[[D7]]
// CHECK-NEXT:    %[[BASE:.*]] = llvm.extractvalue %[[D7]][1]
// CHECK-NEXT:    llvm.getelementptr inbounds %[[BASE]][6] : (!llvm.ptr) -> !llvm.ptr, f32

// memref.rank is a constant; extract_strided_metadata reads the fields
// (constants where the type fixes them) and gives the buffer as a rank-0
// memref; extract_aligned_pointer_as_index is the aligned pointer's address.
func.func @metadata(%a: memref<?x4xf32, strided<[?, 1], offset: ?>>) -> (index, index, index, index, index, index, f32) {
  %rank = "memref.rank"(%a) : (memref<?x4xf32, strided<[?, 1], offset: ?>>) -> index
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %a : memref<?x4xf32, strided<[?, 1], offset: ?>> -> memref<f32>, index, index, index, index, index
  %first = memref.load %base[] : memref<f32>
  %address = "memref.extract_aligned_pointer_as_index"(%a) : (memref<?x4xf32, strided<[?, 1], offset: ?>>) -> index
  %zero = arith.subi %address, %address : index
  %s = arith.addi %sizes#0, %zero : index
  return %rank, %offset, %s, %sizes#1, %strides#0, %strides#1, %first : index, index, index, index, index, index, f32
}
// CHECK-LABEL: func.func @metadata
// CHECK:         %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %rank = builtin.unrealized_conversion_cast %[[TWO]] : i64 to index
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : {{.*}} to !llvm.struct
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[A]][0]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    %[[B0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:    %[[B1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[B0]][0]
// CHECK-NEXT:    %[[B2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[B1]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[B3:.*]] = llvm.insertvalue %[[ZERO]], %[[B2]][2]
// CHECK-NEXT:    %[[OFFSET:.*]] = llvm.extractvalue %[[A]][2]
// CHECK-NEXT:    %[[SIZE0:.*]] = llvm.extractvalue %[[A]][3, 0]
// CHECK-NEXT:    %[[STRIDE0:.*]] = llvm.extractvalue %[[A]][4, 0]
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %base = builtin.unrealized_conversion_cast %[[B3]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)> to memref<f32>
// CHECK-NEXT:    %offset = builtin.unrealized_conversion_cast %[[OFFSET]] : i64 to index
// CHECK-NEXT:    %sizes = builtin.unrealized_conversion_cast %[[SIZE0]] : i64 to index
// CHECK-NEXT:    %sizes_1 = builtin.unrealized_conversion_cast %[[FOUR]] : i64 to index
// CHECK-NEXT:    %strides = builtin.unrealized_conversion_cast %[[STRIDE0]] : i64 to index
// CHECK-NEXT:    %strides_1 = builtin.unrealized_conversion_cast %[[ONE]] : i64 to index
// CHECK:         %[[A2:.*]] = builtin.unrealized_conversion_cast %a : {{.*}} to !llvm.struct
// CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[A2]][1]
// CHECK-NEXT:    %[[ADDRESS:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK-NEXT:    %address = builtin.unrealized_conversion_cast %[[ADDRESS]] : i64 to index

// memref.view: a row-major memref at a byte offset into an i8 buffer.
func.func @view(%bytes: memref<64xi8>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %v = memref.view %bytes[%c8][%n] : memref<64xi8> to memref<?x2xi32>
  %e = memref.load %v[%c1, %c1] : memref<?x2xi32>
  return %e : i32
}
// CHECK-LABEL: func.func @view
// CHECK:         %[[B:.*]] = builtin.unrealized_conversion_cast %bytes : memref<64xi8> to
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[B]][1]
// CHECK-NEXT:    %[[SHIFTED:.*]] = llvm.getelementptr inbounds %[[ALIGNED]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[B]][0]
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[SHIFTED]], %[[D1]][1]

// memref.assume_alignment passes its operand on; a global declared
// `uninitialized` starts as zeros.
"memref.global"() <{sym_name = "counts", sym_visibility = "private", type = memref<4xi32>, initial_value}> : () -> ()
func.func @assume_and_uninitialized(%a: memref<4xf32>, %i: index) -> (f32, i32) {
  %b = memref.assume_alignment %a, 4 : memref<4xf32>
  %v = memref.load %b[%i] : memref<4xf32>
  %g = memref.get_global @counts : memref<4xi32>
  %w = memref.load %g[%i] : memref<4xi32>
  return %v, %w : f32, i32
}
// CHECK:         llvm.mlir.global private @counts(dense<0> : tensor<4xi32>) {addr_space = 0 : i32} : !llvm.array<4 x i32>
// CHECK-LABEL: func.func @assume_and_uninitialized
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<4xf32> to
// CHECK-NEXT:    %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:    %[[P:.*]] = llvm.extractvalue %[[A]][1]
// CHECK-NEXT:    llvm.getelementptr inbounds %[[P]][%[[I]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         llvm.mlir.addressof @counts : !llvm.ptr
