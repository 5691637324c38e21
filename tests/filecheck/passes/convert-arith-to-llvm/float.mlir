// Float arithmetic: one LLVM op each, fast-math flags kept; maximumf and
// minimumf are the NaN-propagating intrinsics, maxnumf and minnumf the
// ones that return the other operand of a NaN.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @arithmetic
func.func @arithmetic(%a: f32, %b: f32) -> f32 {
  %s = arith.addf %a, %b : f32
  %d = arith.subf %s, %b fastmath<nnan,ninf> : f32
  %m = arith.mulf %d, %a fastmath<fast> : f32
  %q = arith.divf %m, %s : f32
  %n = arith.negf %q fastmath<nsz> : f32
  return %n : f32
}
// CHECK-NEXT: %s = llvm.fadd %a, %b : f32
// CHECK-NEXT: %d = llvm.fsub %s, %b {fastmathFlags = #llvm.fastmath<nnan,ninf>} : f32
// CHECK-NEXT: %m = llvm.fmul %d, %a {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT: %q = llvm.fdiv %m, %s : f32
// CHECK-NEXT: %n = llvm.fneg %q {fastmathFlags = #llvm.fastmath<nsz>} : f32
// CHECK-NEXT: func.return %n : f32

// CHECK-LABEL: func.func @min_max
func.func @min_max(%a: f64, %b: f64) -> (f64, f64, f64, f64) {
  %maximum = arith.maximumf %a, %b : f64
  %minimum = arith.minimumf %a, %b fastmath<nsz> : f64
  %maxnum = arith.maxnumf %a, %b : f64
  %minnum = arith.minnumf %a, %b : f64
  return %maximum, %minimum, %maxnum, %minnum : f64, f64, f64, f64
}
// CHECK-NEXT: %maximum = llvm.intr.maximum(%a, %b) : (f64, f64) -> f64
// CHECK-NEXT: %minimum = llvm.intr.minimum(%a, %b) {fastmathFlags = #llvm.fastmath<nsz>} : (f64, f64) -> f64
// CHECK-NEXT: %maxnum = llvm.intr.maxnum(%a, %b) : (f64, f64) -> f64
// CHECK-NEXT: %minnum = llvm.intr.minnum(%a, %b) : (f64, f64) -> f64
