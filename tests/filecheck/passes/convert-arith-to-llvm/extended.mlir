// The ops with two results: addui_extended adds and tells whether the
// unsigned sum wrapped (`sum < lhs`); mulsi_extended and mului_extended
// multiply in twice the width (sign- or zero-extended) and split the
// product into its low and high halves.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @add_extended
func.func @add_extended(%a: i32, %b: i32) -> (i32, i1) {
  %sum, %carry = arith.addui_extended %a, %b : i32, i1
  return %sum, %carry : i32, i1
}
// CHECK-NEXT: %sum = llvm.add %a, %b : i32
// CHECK-NEXT: %carry = llvm.icmp "ult" %sum, %a : i32
// CHECK-NEXT: func.return %sum, %carry : i32, i1

// CHECK-LABEL: func.func @mul_extended
func.func @mul_extended(%a: i32, %b: i32) -> (i32, i32, i32, i32) {
  %slow, %shigh = arith.mulsi_extended %a, %b : i32
  %ulow, %uhigh = arith.mului_extended %a, %b : i32
  return %slow, %shigh, %ulow, %uhigh : i32, i32, i32, i32
}
// CHECK-NEXT: %[[A:.*]] = llvm.sext %a : i32 to i64
// CHECK-NEXT: %[[B:.*]] = llvm.sext %b : i32 to i64
// CHECK-NEXT: %[[P:.*]] = llvm.mul %[[A]], %[[B]] : i64
// CHECK-NEXT: %slow = llvm.trunc %[[P]] : i64 to i32
// CHECK-NEXT: %[[W:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT: %[[H:.*]] = llvm.lshr %[[P]], %[[W]] : i64
// CHECK-NEXT: %shigh = llvm.trunc %[[H]] : i64 to i32
// CHECK-NEXT: %[[UA:.*]] = llvm.zext %a : i32 to i64
// CHECK-NEXT: %[[UB:.*]] = llvm.zext %b : i32 to i64
// CHECK-NEXT: %[[UP:.*]] = llvm.mul %[[UA]], %[[UB]] : i64
// CHECK-NEXT: %ulow = llvm.trunc %[[UP]] : i64 to i32

// An i64 product is computed in i128.
// CHECK-LABEL: func.func @mul_extended_i64
func.func @mul_extended_i64(%a: i64, %b: i64) -> (i64, i64) {
  %low, %high = arith.mului_extended %a, %b : i64
  return %low, %high : i64, i64
}
// CHECK-NEXT: %[[A:.*]] = llvm.zext %a : i64 to i128
// CHECK-NEXT: %[[B:.*]] = llvm.zext %b : i64 to i128
// CHECK-NEXT: %[[P:.*]] = llvm.mul %[[A]], %[[B]] : i128
// CHECK-NEXT: %low = llvm.trunc %[[P]] : i128 to i64
// CHECK-NEXT: %[[W:.*]] = llvm.mlir.constant(64 : i128) : i128
