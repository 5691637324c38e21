// With parallel=true the loop over the blocks of rows is an scf.parallel:
// each block packs its own rows of A and stages its own tiles (heap buffers,
// freed in the iteration), and writes only its rows of C, so the blocks may
// run on different threads (outline-parallel-loops-ext, compile_module's
// threads). A contraction with a single block of rows keeps its scf.for.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 parallel=true cache-tile=12,16,8}' | filecheck %s

func.func @rows(%a: memref<40x10xf32>, %b: memref<10x20xf32>, %c: memref<40x20xf32>) {
  linalg.matmul ins(%a, %b : memref<40x10xf32>, memref<10x20xf32>) outs(%c : memref<40x20xf32>)
  return
}
// CHECK-LABEL: func.func @rows
// CHECK:         %packed_rhs = memref.alloc() {alignment = 64 : i64} : memref<1x8x16xf32>
// CHECK:         "scf.parallel"(%c0, %c40, %c12)
// CHECK-NEXT:    ^{{.*}}(%ic: index):
// CHECK:           %packed_lhs = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK-NEXT:      %stage = memref.alloc() {alignment = 64 : i64} : memref<6x16xf32>
// CHECK:           scf.for %k =
// CHECK:           memref.dealloc %stage : memref<6x16xf32>
// CHECK-NEXT:      memref.dealloc %packed_lhs : memref<2x8x6xf32>
// CHECK-NEXT:      scf.reduce

func.func @one_block(%a: memref<10x10xf32>, %b: memref<10x20xf32>, %c: memref<10x20xf32>) {
  linalg.matmul ins(%a, %b : memref<10x10xf32>, memref<10x20xf32>) outs(%c : memref<10x20xf32>)
  return
}
// CHECK-LABEL: func.func @one_block
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for %ic =
