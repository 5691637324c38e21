// f32 exp, log, log2, log1p, expm1, tanh and erf become arith code (range
// reduction, fused multiply-adds, selects for the special values); no math
// op that would be a libm call is left. Other types are left alone.
// RUN: xdsl-opt %s -p math-polynomial-approximation-ext | filecheck %s

// exp: clamp (keeping NaN), k = round(x log2(e)) by adding 1.5 * 2**23 in
// the fused multiply-add and subtracting it, r = x - k ln 2 in two fused
// steps, the polynomial, k read back from the sum's bits, 2**k in two halves;
// a NaN flows through, no select restores it.
// CHECK-LABEL: func.func @exp
// CHECK:      %[[LOW:.*]] = arith.cmpf olt
// CHECK-NEXT: arith.select %[[LOW]]
// CHECK:      %[[HIGH:.*]] = arith.cmpf ogt
// CHECK-NEXT: arith.select %[[HIGH]]
// CHECK:      %[[SHIFTER:.*]] = arith.constant 0x4B400000 : f32
// CHECK-NEXT: %[[SHIFTED:.*]] = math.fma %{{.*}}, %{{.*}}, %[[SHIFTER]] : f32
// CHECK-NEXT: arith.subf %[[SHIFTED]], %[[SHIFTER]] : f32
// CHECK:      %[[BITS:.*]] = arith.bitcast %[[SHIFTED]] : f32 to i32
// CHECK-NEXT: %[[SHIFTER_BITS:.*]] = arith.constant 1262485504 : i32
// CHECK-NEXT: arith.subi %[[BITS]], %[[SHIFTER_BITS]] : i32
// CHECK:      arith.shrsi
// CHECK-NEXT: arith.subi
// CHECK:      arith.shli
// CHECK-NEXT: arith.bitcast {{.*}} : i32 to f32
// CHECK-NOT:  arith.cmpf uno
// CHECK-NOT:  math.exp
// CHECK:      memref.store
func.func @exp(%x: f32, %out: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %y = math.exp %x : f32
  memref.store %y, %out[%c0] : memref<1xf32>
  return
}

// log: the exponent from the bits (subnormals scaled by 2**23 first), the
// significand in [sqrt(1/2), sqrt(2)), then the special values.
// CHECK-LABEL: func.func @logs
// CHECK:      arith.bitcast {{.*}} : f32 to i32
// CHECK:      arith.shrui
// CHECK:      arith.cmpf oeq
// CHECK:      arith.cmpf ult
// CHECK:      arith.cmpf oeq
// CHECK-NOT:  math.log
// CHECK:      memref.store
func.func @logs(%x: f32, %out: memref<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = math.log %x : f32
  %b = math.log2 %x : f32
  %c = math.log1p %x : f32
  memref.store %a, %out[%c0] : memref<3xf32>
  memref.store %b, %out[%c1] : memref<3xf32>
  memref.store %c, %out[%c2] : memref<3xf32>
  return
}

// CHECK-LABEL: func.func @others
// CHECK-NOT:  math.expm1
// CHECK-NOT:  math.tanh
// CHECK-NOT:  math.erf
// CHECK:      math.copysign
// CHECK:      math.copysign
// CHECK:      memref.store
func.func @others(%x: f32, %out: memref<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = math.expm1 %x : f32
  %b = math.tanh %x : f32
  %c = math.erf %x : f32
  memref.store %a, %out[%c0] : memref<3xf32>
  memref.store %b, %out[%c1] : memref<3xf32>
  memref.store %c, %out[%c2] : memref<3xf32>
  return
}

// f64 and f16 keep their op.
// CHECK-LABEL: func.func @unchanged
// CHECK-NEXT:  math.exp %x : f64
// CHECK-NEXT:  math.tanh %h : f16
// CHECK-NEXT:  math.sin %s : f32
func.func @unchanged(%x: f64, %h: f16, %s: f32) -> (f64, f16, f32) {
  %a = math.exp %x : f64
  %b = math.tanh %h : f16
  %c = math.sin %s : f32
  return %a, %b, %c : f64, f16, f32
}
