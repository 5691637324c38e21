// approximate-math runs math-polynomial-approximation-ext before
// convert-math-to-llvm: the f32 exp of the loop is fused multiply-adds, no
// call to libm's expf; f64's exp stays the intrinsic. fast-math=fast implies it.
// RUN: xdsl-opt -p 'lower-to-llvm{approximate-math=true}' %s | filecheck %s
// RUN: xdsl-opt -p 'lower-to-llvm{fast-math=fast}' %s | filecheck %s
// RUN: xdsl-opt -p lower-to-llvm %s | filecheck %s --check-prefix=LIBM

// CHECK-LABEL: llvm.func @exp_all
// CHECK:       llvm.intr.fma
// CHECK:       llvm.bitcast {{.*}} : f32 to i32
// CHECK-NOT:   llvm.intr.exp({{.*}}) : (f32)
// CHECK:       llvm.intr.exp({{.*}}) : (f64) -> f64
// CHECK:       llvm.return
// LIBM-LABEL:  llvm.func @exp_all
// LIBM:        llvm.intr.exp({{.*}}) : (f32) -> f32
func.func @exp_all(%in: memref<8xf32>, %out: memref<8xf32>, %d: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %in[%i] : memref<8xf32>
    %y = math.exp %x : f32
    memref.store %y, %out[%i] : memref<8xf32>
  }
  %e = math.exp %d : f64
  return %e : f64
}
