// Math ops LLVM has an intrinsic for: one intrinsic each, on f32 and f64,
// fast-math flags kept.
// RUN: xdsl-opt %s -p convert-math-to-llvm | filecheck %s

// CHECK-LABEL: func.func @rounding
func.func @rounding(%x: f32) -> (f32, f32, f32, f32, f32, f32) {
  %abs = math.absf %x : f32
  %ceil = math.ceil %x : f32
  %floor = math.floor %x fastmath<nnan> : f32
  %trunc = math.trunc %x : f32
  %round = math.round %x : f32
  %even = math.roundeven %x : f32
  return %abs, %ceil, %floor, %trunc, %round, %even : f32, f32, f32, f32, f32, f32
}
// CHECK-NEXT: %abs = llvm.intr.fabs(%x) : (f32) -> f32
// CHECK-NEXT: %ceil = llvm.intr.ceil(%x) : (f32) -> f32
// CHECK-NEXT: %floor = llvm.intr.floor(%x) {fastmathFlags = #llvm.fastmath<nnan>} : (f32) -> f32
// CHECK-NEXT: %trunc = llvm.intr.trunc(%x) : (f32) -> f32
// CHECK-NEXT: %round = llvm.intr.round(%x) : (f32) -> f32
// CHECK-NEXT: %even = llvm.intr.roundeven(%x) : (f32) -> f32

// Logarithms of the negative inputs are NaN on both sides.
// CHECK-LABEL: func.func @transcendental
func.func @transcendental(%x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %sqrt = math.sqrt %x : f64
  %exp = math.exp %x : f64
  %exp2 = math.exp2 %x fastmath<contract> : f64
  %log = math.log %x : f64
  %log2 = math.log2 %x : f64
  %log10 = math.log10 %x : f64
  %sin = math.sin %x : f64
  %cos = math.cos %x : f64
  %pow = math.powf %exp, %x : f64
  return %sqrt, %exp, %exp2, %log, %log2, %log10, %sin, %cos, %pow : f64, f64, f64, f64, f64, f64, f64, f64, f64
}
// CHECK-NEXT: %sqrt = llvm.intr.sqrt(%x) : (f64) -> f64
// CHECK-NEXT: %exp = llvm.intr.exp(%x) : (f64) -> f64
// CHECK-NEXT: %exp2 = llvm.intr.exp2(%x) {fastmathFlags = #llvm.fastmath<contract>} : (f64) -> f64
// CHECK-NEXT: %log = llvm.intr.log(%x) : (f64) -> f64
// CHECK-NEXT: %log2 = llvm.intr.log2(%x) : (f64) -> f64
// CHECK-NEXT: %log10 = llvm.intr.log10(%x) : (f64) -> f64
// CHECK-NEXT: %sin = llvm.intr.sin(%x) : (f64) -> f64
// CHECK-NEXT: %cos = llvm.intr.cos(%x) : (f64) -> f64
// CHECK-NEXT: %pow = llvm.intr.pow(%exp, %x) : (f64, f64) -> f64

// CHECK-LABEL: func.func @ternary_and_sign
func.func @ternary_and_sign(%a: f32, %b: f32, %c: f32) -> (f32, f32) {
  %fma = math.fma %a, %b, %c fastmath<contract> : f32
  %sign = math.copysign %a, %b : f32
  return %fma, %sign : f32, f32
}
// CHECK-NEXT: %fma = llvm.intr.fma(%a, %b, %c) {fastmathFlags = #llvm.fastmath<contract>} : (f32, f32, f32) -> f32
// CHECK-NEXT: %sign = llvm.intr.copysign(%a, %b) : (f32, f32) -> f32
