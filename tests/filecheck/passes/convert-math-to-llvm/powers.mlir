// rsqrt is 1 / sqrt; fpowi converts the exponent to the float type and
// calls llvm.intr.pow; ipowi calls a function the pass adds to the module
// (square and multiply; a negative exponent gives 0 but for the bases 1
// and -1), one per integer type.
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
// CHECK-NEXT: %[[N:.*]] = llvm.sitofp %n : i32 to f64
// CHECK-NEXT: %r = llvm.intr.pow(%x, %[[N]]) : (f64, f64) -> f64
// CHECK-NEXT: func.return %r : f64

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

// CHECK-LABEL: llvm.func internal @__linalg_ext_ipowi_i32(%0: i32, %1: i32) -> i32 {
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[NEG:.*]] = llvm.icmp "slt" %1, %[[ZERO]] : i32
// CHECK-NEXT:    llvm.cond_br %[[NEG]], ^bb1, ^bb2(%[[ONE]], %0, %1 : i32, i32, i32)
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
