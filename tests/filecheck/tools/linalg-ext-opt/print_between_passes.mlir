// lower-to-llvm is a pipeline: --print-between-passes shows the IR after
// each of its stages (on stderr; stdout is the result), --time-passes times
// each one.
// RUN: linalg-ext-opt %s -p lower-to-llvm --print-between-passes 2>&1 >/dev/null | filecheck %s
// RUN: linalg-ext-opt %s -p lower-to-llvm --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: linalg-ext-opt %s -p lower-to-llvm --print-between-passes 2>/dev/null | filecheck %s --check-prefix=OUT

func.func @exp(%x: memref<4xf32>, %y: memref<4xf32>) {
  linalg.exp ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}

// CHECK:      IR after linalg-contraction-microkernel (stage 1/13 of lower-to-llvm):
// CHECK:      IR after convert-linalg-ext-to-loops (stage 2/13 of lower-to-llvm):
// CHECK:      IR after convert-linalg-to-loops-ext (stage 3/13 of lower-to-llvm):
// CHECK:        scf.for
// CHECK:      IR after lower-affine-ext (stage 4/13 of lower-to-llvm):
// CHECK:      IR after convert-scf-to-cf-ext (stage 5/13 of lower-to-llvm):
// CHECK:        cf.cond_br
// CHECK:      IR after convert-cf-to-llvm (stage 6/13 of lower-to-llvm):
// CHECK:      IR after convert-math-to-llvm (stage 7/13 of lower-to-llvm):
// CHECK:        llvm.intr.exp
// CHECK:      IR after convert-vector-to-llvm-ext (stage 8/13 of lower-to-llvm):
// CHECK:      IR after convert-arith-to-llvm (stage 9/13 of lower-to-llvm):
// CHECK:      IR after convert-index-to-llvm (stage 10/13 of lower-to-llvm):
// CHECK:      IR after finalize-memref-to-llvm (stage 11/13 of lower-to-llvm):
// CHECK:      IR after convert-func-to-llvm (stage 12/13 of lower-to-llvm):
// CHECK:        llvm.func @exp
// CHECK-NOT:  IR after

// TIME-COUNT-13: Pass {{.*}} (stage {{[0-9]+}}/13 of lower-to-llvm) took {{.*}} seconds

// OUT:     llvm.func @exp
// OUT-NOT: IR after
