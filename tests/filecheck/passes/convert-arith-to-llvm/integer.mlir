// Integer arithmetic: one LLVM op each, overflow flags kept; `index`
// operands are cast to i64 and the i64 results cast back for their users.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @wrapping
func.func @wrapping(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b overflow<nsw> : i32
  %d = arith.subi %s, %b : i32
  %m = arith.muli %d, %a overflow<nsw,nuw> : i32
  %x = arith.xori %m, %a : i32
  %o = arith.ori %x, %b : i32
  %n = arith.andi %o, %s : i32
  return %n : i32
}
// CHECK-NEXT: %s = llvm.add %a, %b overflow<nsw> : i32
// CHECK-NEXT: %d = llvm.sub %s, %b : i32
// CHECK-NEXT: %m = llvm.mul %d, %a overflow<nsw,nuw> : i32
// CHECK-NEXT: %x = llvm.xor %m, %a : i32
// CHECK-NEXT: %o = llvm.or %x, %b : i32
// CHECK-NEXT: %n = llvm.and %o, %s : i32
// CHECK-NEXT: func.return %n : i32

// Divisors are made odd (never zero) so that every input is defined.
// CHECK-LABEL: func.func @dividing
func.func @dividing(%a: i64, %b: i64) -> (i64, i64, i64, i64) {
  %one = arith.constant 1 : i64
  %odd = arith.ori %b, %one : i64
  %q = arith.divsi %a, %odd : i64
  %r = arith.remsi %a, %odd : i64
  %uq = arith.divui %a, %odd : i64
  %ur = arith.remui %a, %odd : i64
  return %q, %r, %uq, %ur : i64, i64, i64, i64
}
// CHECK:      %odd = llvm.or %b, %one : i64
// CHECK-NEXT: %q = llvm.sdiv %a, %odd : i64
// CHECK-NEXT: %r = llvm.srem %a, %odd : i64
// CHECK-NEXT: %uq = llvm.udiv %a, %odd : i64
// CHECK-NEXT: %ur = llvm.urem %a, %odd : i64

// Shift amounts are masked below the width.
// CHECK-LABEL: func.func @shifting
func.func @shifting(%a: i32, %b: i32) -> (i32, i32, i32) {
  %mask = arith.constant 31 : i32
  %k = arith.andi %b, %mask : i32
  %l = arith.shli %a, %k : i32
  %s = arith.shrsi %a, %k : i32
  %u = arith.shrui %a, %k : i32
  return %l, %s, %u : i32, i32, i32
}
// CHECK:      %l = llvm.shl %a, %k : i32
// CHECK-NEXT: %s = llvm.ashr %a, %k : i32
// CHECK-NEXT: %u = llvm.lshr %a, %k : i32

// CHECK-LABEL: func.func @min_max
func.func @min_max(%a: i8, %b: i8) -> (i8, i8, i8, i8) {
  %smax = arith.maxsi %a, %b : i8
  %smin = arith.minsi %a, %b : i8
  %umax = arith.maxui %a, %b : i8
  %umin = arith.minui %a, %b : i8
  return %smax, %smin, %umax, %umin : i8, i8, i8, i8
}
// CHECK-NEXT: %smax = llvm.intr.smax(%a, %b) : (i8, i8) -> i8
// CHECK-NEXT: %smin = llvm.intr.smin(%a, %b) : (i8, i8) -> i8
// CHECK-NEXT: %umax = llvm.intr.umax(%a, %b) : (i8, i8) -> i8
// CHECK-NEXT: %umin = llvm.intr.umin(%a, %b) : (i8, i8) -> i8

// CHECK-LABEL: func.func @on_index
func.func @on_index(%i: index, %j: index) -> index {
  %s = arith.addi %i, %j : index
  %m = arith.muli %s, %i : index
  return %m : index
}
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %[[J:.*]] = builtin.unrealized_conversion_cast %j : index to i64
// CHECK-NEXT: %[[S:.*]] = llvm.add %[[I]], %[[J]] : i64
// CHECK-NEXT: %{{.*}} = builtin.unrealized_conversion_cast %[[S]] : i64 to index
// CHECK:      %[[M:.*]] = llvm.mul %[[S]], %{{.*}} : i64
// CHECK-NEXT: %[[R:.*]] = builtin.unrealized_conversion_cast %[[M]] : i64 to index
// CHECK-NEXT: func.return %[[R]] : index
