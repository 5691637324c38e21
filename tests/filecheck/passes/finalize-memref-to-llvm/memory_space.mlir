// RUN: xdsl-opt %s -p finalize-memref-to-llvm | filecheck %s

// An integer memory space (what linalg-data-place allocates in) is ordinary
// memory on the CPU: it lowers exactly as the default space, to pointers of
// LLVM's address space 0. (Upstream gives the descriptor `!llvm.ptr<N>`, so
// upstream's convert-func-to-llvm and ours disagree on a function argument
// in a non-default space; buffers allocated inside a function, as here,
// lower the same with either.)
func.func @staged(%a: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32, 1>
  memref.copy %a, %t : memref<4xf32> to memref<4xf32, 1>
  %b = memref.alloc() : memref<4xf32, 2>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32, 2>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %t[%i] : memref<4xf32, 1>
    %w = memref.load %b[%i] : memref<4xf32, 2>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  }
  memref.dealloc %t : memref<4xf32, 1>
  memref.dealloc %b : memref<4xf32, 2>
  return
}
// CHECK-LABEL: func.func @staged
// CHECK:         llvm.call @malloc(%{{.*}}) : (i64) -> !llvm.ptr
// CHECK:         "llvm.intr.memcpy"
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:         llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
// CHECK-NOT:     memref.
