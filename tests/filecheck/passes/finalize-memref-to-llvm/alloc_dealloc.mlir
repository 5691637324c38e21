// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s
// RUN: xdsl-opt %s -p 'finalize-memref-to-llvm{use-generic-functions=true}' | filecheck %s --check-prefix=GENERIC
// RUN: xdsl-opt %s -p 'finalize-memref-to-llvm{use-aligned-alloc=true}' | filecheck %s --check-prefix=ALIGNED

// memref.alloc calls malloc with the byte size and builds a row-major
// descriptor; memref.dealloc frees the allocated pointer.

// CHECK:      llvm.func @free(!llvm.ptr)
// CHECK-NEXT: llvm.func @malloc(i64) -> !llvm.ptr
// GENERIC:      llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// GENERIC-NEXT: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// ALIGNED:      llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// ALIGNED-NEXT: llvm.func @free(!llvm.ptr)

// A static shape: the size is a constant, 4 * 8 * 4 bytes.
func.func @alloc_static(%a: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %t[%i, %j] : memref<4x8xf32>
    }
  }
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %t[%i, %j] : memref<4x8xf32>
      memref.store %v, %out[%i, %j] : memref<4x8xf32>
    }
  }
  memref.dealloc %t : memref<4x8xf32>
  return
}
// CHECK-LABEL: func.func @alloc_static
// CHECK:         %[[SIZE:.*]] = llvm.mlir.constant(128) : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.call @malloc(%[[SIZE]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[P]], %[[D1]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[FOUR]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[EIGHT]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[EIGHT]], %[[D5]][4, 0]
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[D7:.*]] = llvm.insertvalue %[[ONE]], %[[D6]][4, 1]
// CHECK-NEXT:    %t = builtin.unrealized_conversion_cast %[[D7]] : {{.*}} to memref<4x8xf32>
// CHECK:         %[[ALLOCATED:.*]] = llvm.extractvalue %[[D7]][0]
// CHECK-NEXT:    llvm.call @free(%[[ALLOCATED]]) : (!llvm.ptr) -> ()
// CHECK-NOT:     memref.
// GENERIC-LABEL: func.func @alloc_static
// GENERIC:         llvm.call @_mlir_memref_to_llvm_alloc(%{{.*}}) : (i64) -> !llvm.ptr
// GENERIC:         llvm.call @_mlir_memref_to_llvm_free(%{{.*}}) : (!llvm.ptr) -> ()
// ALIGNED-LABEL: func.func @alloc_static
// ALIGNED:         %[[ALIGN:.*]] = llvm.mlir.constant(16) : i64
// ALIGNED-NEXT:    %[[SIZE:.*]] = llvm.mlir.constant(128) : i64
// ALIGNED-NEXT:    %[[P:.*]] = llvm.call @aligned_alloc(%[[ALIGN]], %[[SIZE]]) : (i64, i64) -> !llvm.ptr
// ALIGNED:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()

// Dynamic sizes and an alignment, returned to the caller: malloc of the size
// plus the alignment, the aligned pointer rounded up to a multiple of 64.
func.func @alloc_dynamic_aligned(%n: index) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %i, %c4 : index
      %l = arith.addi %k, %j : index
      %m = arith.index_cast %l : index to i64
      %v = arith.sitofp %m : i64 to f32
      memref.store %v, %t[%i, %j] : memref<?x4xf32>
    }
  }
  return %t : memref<?x4xf32>
}
// CHECK-LABEL: func.func @alloc_dynamic_aligned
// CHECK:         %[[N:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:    %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:    %[[COUNT:.*]] = llvm.mul %[[N]], %[[FOUR]] overflow<nsw> : i64
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.mul %[[COUNT]], %[[FOUR]] overflow<nsw> : i64
// CHECK-NEXT:    %[[ALIGN:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT:    %[[TOTAL:.*]] = llvm.add %[[BYTES]], %[[ALIGN]] overflow<nsw> : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.call @malloc(%[[TOTAL]]) : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[ADDRESS:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK-NEXT:    %[[BUMP:.*]] = llvm.mlir.constant(63) : i64
// CHECK-NEXT:    %[[BUMPED:.*]] = llvm.add %[[ADDRESS]], %[[BUMP]] overflow<nsw> : i64
// CHECK-NEXT:    %[[MASK:.*]] = llvm.mlir.constant(-64) : i64
// CHECK-NEXT:    %[[ROUNDED:.*]] = llvm.and %[[BUMPED]], %[[MASK]] : i64
// CHECK-NEXT:    %[[APTR:.*]] = llvm.inttoptr %[[ROUNDED]] : i64 to !llvm.ptr
// CHECK-NEXT:    %[[D0:.*]] = llvm.mlir.undef
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][0]
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[APTR]], %[[D1]][1]
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[N]], %[[D3]][3, 0]
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[FOUR]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[FOUR]], %[[D5]][4, 0]
// ALIGNED-LABEL: func.func @alloc_dynamic_aligned
// ALIGNED:         %[[BUMP:.*]] = llvm.mlir.constant(63) : i64
// ALIGNED-NEXT:    %[[BUMPED:.*]] = llvm.add %{{.*}}, %[[BUMP]] overflow<nsw> : i64
// ALIGNED-NEXT:    %[[MASK:.*]] = llvm.mlir.constant(-64) : i64
// ALIGNED-NEXT:    %[[ROUNDED:.*]] = llvm.and %[[BUMPED]], %[[MASK]] : i64
// ALIGNED-NEXT:    %[[ALIGN:.*]] = llvm.mlir.constant(64) : i64
// ALIGNED-NEXT:    %[[P:.*]] = llvm.call @aligned_alloc(%[[ALIGN]], %[[ROUNDED]]) : (i64, i64) -> !llvm.ptr
// ALIGNED-NEXT:    llvm.mlir.undef
// ALIGNED-NEXT:    llvm.insertvalue %[[P]], %{{.*}}[0]
// ALIGNED-NEXT:    llvm.insertvalue %[[P]], %{{.*}}[1]

// memref.alloca: stack memory for the element count, no free.
func.func @alloca_sum(%a: memref<8xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %t = memref.alloca() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xi32>
    memref.store %v, %t[%i] : memref<8xi32>
  }
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %t[%i] : memref<8xi32>
    %s = arith.addi %acc, %v : i32
    scf.yield %s : i32
  }
  return %sum : i32
}
// CHECK-LABEL: func.func @alloca_sum
// CHECK:         %[[COUNT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[P:.*]] = llvm.alloca %[[COUNT]] x i32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    llvm.mlir.undef
// CHECK-NEXT:    llvm.insertvalue %[[P]], %{{.*}}[0]
// CHECK-NEXT:    llvm.insertvalue %[[P]], %{{.*}}[1]
// CHECK-NOT:     llvm.call

// A dynamic alloca with an alignment.
func.func @alloca_dynamic(%n: index, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.addi %n, %c1 : index
  %t = memref.alloca(%m) {alignment = 32 : i64} : memref<?xf64>
  memref.store %x, %t[%n] : memref<?xf64>
  %v = memref.load %t[%n] : memref<?xf64>
  %w = arith.addf %v, %x : f64
  return %w : f64
}
// CHECK-LABEL: func.func @alloca_dynamic
// CHECK:         %[[M:.*]] = builtin.unrealized_conversion_cast %m : index to i64
// CHECK-NEXT:    %[[P:.*]] = llvm.alloca %[[M]] x f64 {alignment = 32 : i64} : (i64) -> !llvm.ptr
