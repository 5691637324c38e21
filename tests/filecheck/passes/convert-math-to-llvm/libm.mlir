// Math ops without an LLVM intrinsic call libm: tanhf on f32, tanh on f64,
// each declared once as an external llvm.func; f16 is extended to f32 for
// the call and truncated back. expm1 and log1p are libm's too (exact near
// 0, where exp(x) - 1 and log(1 + x) lose every digit).
// RUN: xdsl-opt %s -p convert-math-to-llvm | filecheck %s

// CHECK:      llvm.func @tanhf(f32) -> f32
// CHECK-NEXT: llvm.func @erff(f32) -> f32
// CHECK-NEXT: llvm.func @cbrtf(f32) -> f32
// CHECK-NEXT: llvm.func @tanh(f64) -> f64
// CHECK-NEXT: llvm.func @atan2(f64, f64) -> f64
// CHECK-NEXT: llvm.func @expm1(f64) -> f64
// CHECK-NEXT: llvm.func @log1p(f64) -> f64
// CHECK-NEXT: llvm.func @tanf(f32) -> f32

// f32 results are stored into a memref: compared as f32 (a returned scalar
// would be compared as a Python float, to f64's tolerance).
// CHECK-LABEL: func.func @single
func.func @single(%x: f32, %out: memref<4xf32>) {
  %t = math.tanh %x : f32
  %u = math.tanh %t fastmath<contract> : f32
  %e = math.erf %x : f32
  %c = math.cbrt %x : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  memref.store %t, %out[%c0] : memref<4xf32>
  memref.store %u, %out[%c1] : memref<4xf32>
  memref.store %e, %out[%c2] : memref<4xf32>
  memref.store %c, %out[%c3] : memref<4xf32>
  return
}
// CHECK-NEXT: %t = llvm.call @tanhf(%x) : (f32) -> f32
// CHECK-NEXT: %u = llvm.call @tanhf(%t) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK-NEXT: %e = llvm.call @erff(%x) : (f32) -> f32
// CHECK-NEXT: %c = llvm.call @cbrtf(%x) : (f32) -> f32

// CHECK-LABEL: func.func @double
func.func @double(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %t = math.tanh %x : f64
  %a = math.atan2 %x, %y : f64
  %e = math.expm1 %x : f64
  %l = math.log1p %x : f64
  return %t, %a, %e, %l : f64, f64, f64, f64
}
// CHECK-NEXT: %t = llvm.call @tanh(%x) : (f64) -> f64
// CHECK-NEXT: %a = llvm.call @atan2(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT: %e = llvm.call @expm1(%x) : (f64) -> f64
// CHECK-NEXT: %l = llvm.call @log1p(%x) : (f64) -> f64

// CHECK-LABEL: func.func @half
func.func @half(%x: f16) -> f16 {
  %t = math.tanh %x : f16
  return %t : f16
}
// CHECK-NEXT: %[[X:.*]] = llvm.fpext %x : f16 to f32
// CHECK-NEXT: %[[T:.*]] = llvm.call @tanhf(%[[X]]) : (f32) -> f32
// CHECK-NEXT: %t = llvm.fptrunc %[[T]] : f32 to f16
// CHECK-NEXT: func.return %t : f16

// The other libm functions, checked by execution: the inputs are in [-1, 1],
// so acosh and atanh are NaN or infinite for some of them, on both sides.
// CHECK-LABEL: func.func @others
func.func @others(%x: f32, %out: memref<9xf32>) {
  %tan = math.tan %x : f32
  %sinh = math.sinh %x : f32
  %cosh = math.cosh %x : f32
  %asin = math.asin %x : f32
  %acos = math.acos %x : f32
  %atan = math.atan %x : f32
  %asinh = math.asinh %x : f32
  %acosh = math.acosh %x : f32
  %atanh = math.atanh %x : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  memref.store %tan, %out[%c0] : memref<9xf32>
  memref.store %sinh, %out[%c1] : memref<9xf32>
  memref.store %cosh, %out[%c2] : memref<9xf32>
  memref.store %asin, %out[%c3] : memref<9xf32>
  memref.store %acos, %out[%c4] : memref<9xf32>
  memref.store %atan, %out[%c5] : memref<9xf32>
  memref.store %asinh, %out[%c6] : memref<9xf32>
  memref.store %acosh, %out[%c7] : memref<9xf32>
  memref.store %atanh, %out[%c8] : memref<9xf32>
  return
}
// CHECK-NEXT: %tan = llvm.call @tanf(%x) : (f32) -> f32
// CHECK-NEXT: %sinh = llvm.call @sinhf(%x) : (f32) -> f32
// CHECK-NEXT: %cosh = llvm.call @coshf(%x) : (f32) -> f32
// CHECK-NEXT: %asin = llvm.call @asinf(%x) : (f32) -> f32
// CHECK-NEXT: %acos = llvm.call @acosf(%x) : (f32) -> f32
// CHECK-NEXT: %atan = llvm.call @atanf(%x) : (f32) -> f32
// CHECK-NEXT: %asinh = llvm.call @asinhf(%x) : (f32) -> f32
// CHECK-NEXT: %acosh = llvm.call @acoshf(%x) : (f32) -> f32
// CHECK-NEXT: %atanh = llvm.call @atanhf(%x) : (f32) -> f32
