// Integer math: counting bits (the width for 0: the intrinsics' poison flag
// is off) and the absolute value (the minimum value is its own).
// RUN: xdsl-opt %s -p convert-math-to-llvm | filecheck %s

// CHECK-LABEL: func.func @bits
func.func @bits(%a: i32, %b: i64) -> (i32, i32, i64, i32, i64) {
  %lead = math.ctlz %a : i32
  %trail = math.cttz %a : i32
  %pop = math.ctpop %b : i64
  %abs = math.absi %a : i32
  %abs64 = math.absi %b : i64
  return %lead, %trail, %pop, %abs, %abs64 : i32, i32, i64, i32, i64
}
// CHECK-NEXT: %lead = "llvm.intr.ctlz"(%a) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT: %trail = "llvm.intr.cttz"(%a) <{is_zero_poison = false}> : (i32) -> i32
// CHECK-NEXT: %pop = llvm.intr.ctpop(%b) : (i64) -> i64
// CHECK-NEXT: %abs = "llvm.intr.abs"(%a) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK-NEXT: %abs64 = "llvm.intr.abs"(%b) <{is_int_min_poison = false}> : (i64) -> i64

// On index: on i64, cast back for the users.
// CHECK-LABEL: func.func @on_index
func.func @on_index(%i: index) -> index {
  %n = math.ctpop %i : index
  return %n : index
}
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %[[N:.*]] = llvm.intr.ctpop(%[[I]]) : (i64) -> i64
// CHECK-NEXT: %n = builtin.unrealized_conversion_cast %[[N]] : i64 to index
