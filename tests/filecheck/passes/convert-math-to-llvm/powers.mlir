// rsqrt is 1 / sqrt; fpowi squares and multiplies over the exponent's
// bits (unrolled for a constant exponent, else a call to a function the
// pass adds); ipowi calls a function the pass adds to the module (square
// and multiply; a negative exponent gives 0 but for the bases 1 and -1),
// one per integer type.
// RUN: xdsl-opt %s -p convert-math-to-llvm | filecheck %s

// CHECK-LABEL: func.func @rsqrt
func.func @rsqrt(%x: f32) -> f32 {
  %r = math.rsqrt %x fastmath<contract> : f32
  return %r : f32
}
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT: %[[ROOT:.*]] = llvm.intr.sqrt(%x) {fastmathFlags = #llvm.fastmath<contract>} : (f32) -> f32
// CHECK-NEXT: %r = llvm.fdiv %[[ONE]], %[[ROOT]] {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK-NEXT: func.return %r : f32

// CHECK-LABEL: func.func @fpowi
func.func @fpowi(%x: f64, %n: i32) -> f64 {
  %r = math.fpowi %x, %n : f64, i32
  return %r : f64
}
// CHECK-NEXT: %r = llvm.call @__linalg_ext_fpowi_f64_i32(%x, %n) : (f64, i32) -> f64
// CHECK-NEXT: func.return %r : f64

// x ** 3 = x * (x * x); x ** -6 = 1 / ((x * x) * ((x * x) * (x * x))); x ** 0 = 1.
// CHECK-LABEL: func.func @fpowi_constant
func.func @fpowi_constant(%x: f32) -> (f32, f32, f32) {
  %three = arith.constant 3 : i64
  %minus_six = arith.constant -6 : i32
  %zero = arith.constant 0 : i32
  %a = math.fpowi %x, %three fastmath<contract> : f32, i64
  %b = math.fpowi %x, %minus_six : f32, i32
  %c = math.fpowi %x, %zero : f32, i32
  return %a, %b, %c : f32, f32, f32
}
// CHECK:      %[[SQ:.*]] = llvm.fmul %x, %x {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK-NEXT: %a = llvm.fmul %x, %[[SQ]] {fastmathFlags = #llvm.fastmath<contract>} : f32
// CHECK-NEXT: %[[SQ2:.*]] = llvm.fmul %x, %x : f32
// CHECK-NEXT: %[[FOURTH:.*]] = llvm.fmul %[[SQ2]], %[[SQ2]] : f32
// CHECK-NEXT: %[[SIXTH:.*]] = llvm.fmul %[[SQ2]], %[[FOURTH]] : f32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT: %b = llvm.fdiv %[[ONE]], %[[SIXTH]] : f32
// CHECK-NEXT: %c = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT: func.return %a, %b, %c : f32, f32, f32

// Bases are made odd (never zero: zero to a negative power is undefined).
// CHECK-LABEL: func.func @ipowi
func.func @ipowi(%a: i32, %b: i32, %i: index, %j: index) -> (i32, i32, index) {
  %one = arith.constant 1 : i32
  %odd_a = arith.ori %a, %one : i32
  %odd_b = arith.ori %b, %one : i32
  %p = math.ipowi %odd_a, %b : i32
  %q = math.ipowi %odd_b, %a : i32
  %r = math.ipowi %i, %j : index
  return %p, %q, %r : i32, i32, index
}
// CHECK:      %p = llvm.call @__linalg_ext_ipowi_i32(%odd_a, %b) : (i32, i32) -> i32
// CHECK-NEXT: %q = llvm.call @__linalg_ext_ipowi_i32(%odd_b, %a) : (i32, i32) -> i32
// CHECK:      %{{.*}} = llvm.call @__linalg_ext_ipowi_i64(%{{.*}}, %{{.*}}) : (i64, i64) -> i64

// CHECK-LABEL: llvm.func internal @__linalg_ext_fpowi_f64_i32(%0: f64, %1: i32) -> f64 {
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[FONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// CHECK-NEXT:    llvm.br ^bb1(%[[FONE]], %0, %1 : f64, f64, i32)
// CHECK-NEXT:  ^bb1(%[[ACC:.*]]: f64, %[[SQ:.*]]: f64, %[[E:.*]]: i32):
// CHECK-NEXT:    %[[DONE:.*]] = llvm.icmp "eq" %[[E]], %[[ZERO]] : i32
// CHECK-NEXT:    llvm.cond_br %[[DONE]], ^bb3(%[[ACC]] : f64), ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    %[[BIT:.*]] = llvm.and %[[E]], %[[ONE]] : i32
// CHECK-NEXT:    %[[ODD:.*]] = llvm.icmp "ne" %[[BIT]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[PROD:.*]] = llvm.fmul %[[ACC]], %[[SQ]] : f64
// CHECK-NEXT:    %[[NACC:.*]] = llvm.select %[[ODD]], %[[PROD]], %[[ACC]] : i1, f64
// CHECK-NEXT:    %[[NSQ:.*]] = llvm.fmul %[[SQ]], %[[SQ]] : f64
// CHECK-NEXT:    %[[HALF:.*]] = llvm.sdiv %[[E]], %[[TWO]] : i32
// CHECK-NEXT:    llvm.br ^bb1(%[[NACC]], %[[NSQ]], %[[HALF]] : f64, f64, i32)
// CHECK-NEXT:  ^bb3(%[[P:.*]]: f64):
// CHECK-NEXT:    %[[NEG:.*]] = llvm.icmp "slt" %1, %[[ZERO]] : i32
// CHECK-NEXT:    %[[RECIP:.*]] = llvm.fdiv %[[FONE]], %[[P]] : f64
// CHECK-NEXT:    %[[R:.*]] = llvm.select %[[NEG]], %[[RECIP]], %[[P]] : i1, f64
// CHECK-NEXT:    llvm.return %[[R]] : f64
// CHECK:       llvm.func internal @__linalg_ext_ipowi_i32(%[[BASE:.*]]: i32, %[[EXP:.*]]: i32) -> i32 {
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[NEG:.*]] = llvm.icmp "slt" %[[EXP]], %[[ZERO]] : i32
// CHECK-NEXT:    llvm.cond_br %[[NEG]], ^bb1, ^bb2(%[[ONE]], %[[BASE]], %[[EXP]] : i32, i32, i32)
// CHECK-NEXT:  ^bb1:
// CHECK:         llvm.return %{{.*}} : i32
// CHECK-NEXT:  ^bb2(%[[ACC:.*]]: i32, %[[SQ:.*]]: i32, %[[E:.*]]: i32):
// CHECK-NEXT:    %[[DONE:.*]] = llvm.icmp "eq" %[[E]], %[[ZERO]] : i32
// CHECK-NEXT:    llvm.cond_br %[[DONE]], ^bb4(%[[ACC]] : i32), ^bb3
// CHECK-NEXT:  ^bb3:
// CHECK-NEXT:    %[[BIT:.*]] = llvm.and %[[E]], %[[ONE]] : i32
// CHECK-NEXT:    %[[ODD:.*]] = llvm.icmp "ne" %[[BIT]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[PROD:.*]] = llvm.mul %[[ACC]], %[[SQ]] : i32
// CHECK-NEXT:    %[[NACC:.*]] = llvm.select %[[ODD]], %[[PROD]], %[[ACC]] : i1, i32
// CHECK-NEXT:    %[[NSQ:.*]] = llvm.mul %[[SQ]], %[[SQ]] : i32
// CHECK-NEXT:    %[[NE:.*]] = llvm.lshr %[[E]], %[[ONE]] : i32
// CHECK-NEXT:    llvm.br ^bb2(%[[NACC]], %[[NSQ]], %[[NE]] : i32, i32, i32)
// CHECK-NEXT:  ^bb4(%[[R:.*]]: i32):
// CHECK-NEXT:    llvm.return %[[R]] : i32
// CHECK-LABEL: llvm.func internal @__linalg_ext_ipowi_i64

