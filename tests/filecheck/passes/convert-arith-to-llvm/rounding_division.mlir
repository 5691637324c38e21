// The divisions that round up or down are expanded: the quotient rounded
// toward zero (sdiv), moved by one when the division is inexact and the
// exact quotient is positive (ceil) or negative (floor); the unsigned
// ceiling is `a == 0 ? 0 : (a - 1) / b + 1`, which cannot overflow.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// Divisors are made odd (never zero) so that every input is defined.
// CHECK-LABEL: func.func @ceildivsi
func.func @ceildivsi(%a: i32, %b: i32) -> i32 {
  %one = arith.constant 1 : i32
  %odd = arith.ori %b, %one : i32
  %q = arith.ceildivsi %a, %odd : i32
  return %q : i32
}
// CHECK:      %[[Q:.*]] = llvm.sdiv %a, %odd : i32
// CHECK-NEXT: %[[P:.*]] = llvm.mul %[[Q]], %odd : i32
// CHECK-NEXT: %[[INEXACT:.*]] = llvm.icmp "ne" %[[P]], %a : i32
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[AN:.*]] = llvm.icmp "slt" %a, %[[ZERO]] : i32
// CHECK-NEXT: %[[BN:.*]] = llvm.icmp "slt" %odd, %[[ZERO]] : i32
// CHECK-NEXT: %[[SAME:.*]] = llvm.icmp "eq" %[[AN]], %[[BN]] : i1
// CHECK-NEXT: %[[UP:.*]] = llvm.and %[[INEXACT]], %[[SAME]] : i1
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[NEXT:.*]] = llvm.add %[[Q]], %[[ONE]] : i32
// CHECK-NEXT: %q = llvm.select %[[UP]], %[[NEXT]], %[[Q]] : i1, i32
// CHECK-NEXT: func.return %q : i32

// CHECK-LABEL: func.func @floordivsi
func.func @floordivsi(%a: i64, %b: i64) -> i64 {
  %one = arith.constant 1 : i64
  %odd = arith.ori %b, %one : i64
  %q = arith.floordivsi %a, %odd : i64
  return %q : i64
}
// CHECK:      %[[Q:.*]] = llvm.sdiv %a, %odd : i64
// CHECK-NEXT: %[[P:.*]] = llvm.mul %[[Q]], %odd : i64
// CHECK-NEXT: %[[INEXACT:.*]] = llvm.icmp "ne" %[[P]], %a : i64
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT: %[[AN:.*]] = llvm.icmp "slt" %a, %[[ZERO]] : i64
// CHECK-NEXT: %[[BN:.*]] = llvm.icmp "slt" %odd, %[[ZERO]] : i64
// CHECK-NEXT: %[[OPPOSITE:.*]] = llvm.icmp "ne" %[[AN]], %[[BN]] : i1
// CHECK-NEXT: %[[DOWN:.*]] = llvm.and %[[INEXACT]], %[[OPPOSITE]] : i1
// CHECK-NEXT: %[[MINUS:.*]] = llvm.mlir.constant(-1) : i64
// CHECK-NEXT: %[[PREV:.*]] = llvm.add %[[Q]], %[[MINUS]] : i64
// CHECK-NEXT: %q = llvm.select %[[DOWN]], %[[PREV]], %[[Q]] : i1, i64
// CHECK-NEXT: func.return %q : i64

// CHECK-LABEL: func.func @ceildivui
func.func @ceildivui(%a: i32, %b: i32) -> i32 {
  %one = arith.constant 1 : i32
  %odd = arith.ori %b, %one : i32
  %q = arith.ceildivui %a, %odd : i32
  return %q : i32
}
// CHECK:      %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[IS_ZERO:.*]] = llvm.icmp "eq" %a, %[[ZERO]] : i32
// CHECK-NEXT: %[[BELOW:.*]] = llvm.sub %a, %[[ONE]] : i32
// CHECK-NEXT: %[[Q:.*]] = llvm.udiv %[[BELOW]], %odd : i32
// CHECK-NEXT: %[[UP:.*]] = llvm.add %[[Q]], %[[ONE]] : i32
// CHECK-NEXT: %q = llvm.select %[[IS_ZERO]], %[[ZERO]], %[[UP]] : i1, i32
// CHECK-NEXT: func.return %q : i32

// On index: the same on i64.
// CHECK-LABEL: func.func @ceildivsi_index
func.func @ceildivsi_index(%a: index, %b: index) -> index {
  %one = arith.constant 1 : index
  %odd = arith.ori %b, %one : index
  %q = arith.ceildivsi %a, %odd : index
  return %q : index
}
// CHECK:      llvm.sdiv %{{.*}}, %{{.*}} : i64
// CHECK:      %[[R:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i64
// CHECK-NEXT: %q = builtin.unrealized_conversion_cast %[[R]] : i64 to index
// CHECK-NEXT: func.return %q : index
