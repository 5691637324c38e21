// The index dialect on i64: one LLVM op each (casts bridge to the users
// still on index); constants are i64 constants, sizeof is 64.
// RUN: xdsl-opt %s -p convert-index-to-llvm | filecheck %s

// CHECK-LABEL: func.func @arithmetic
func.func @arithmetic(%a: index, %b: index) -> (index, index, index, index, index, index, index, index) {
  %add = index.add %a, %b
  %sub = index.sub %a, %b
  %mul = index.mul %a, %b
  %and = index.and %a, %b
  %or = index.or %a, %b
  %xor = index.xor %a, %b
  %maxs = index.maxs %a, %b
  %minu = index.minu %a, %b
  return %add, %sub, %mul, %and, %or, %xor, %maxs, %minu : index, index, index, index, index, index, index, index
}
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
// CHECK-NEXT: %[[ADD:.*]] = llvm.add %[[A]], %[[B]] : i64
// CHECK-NEXT: %add = builtin.unrealized_conversion_cast %[[ADD]] : i64 to index
// CHECK:      llvm.sub %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.and %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.or %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.xor %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.intr.smax(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK:      llvm.intr.umin(%{{.*}}, %{{.*}}) : (i64, i64) -> i64

// Divisors are made odd (never zero); shift amounts below 64.
// CHECK-LABEL: func.func @division_and_shifts
func.func @division_and_shifts(%a: index, %b: index) -> (index, index, index, index, index, index, index, index, index) {
  %one = index.constant 1
  %odd = index.or %b, %one
  %divs = index.divs %a, %odd
  %divu = index.divu %a, %odd
  %rems = index.rems %a, %odd
  %remu = index.remu %a, %odd
  %ceil = index.ceildivs %a, %odd
  %floor = index.floordivs %a, %odd
  %mask = index.constant 63
  %k = index.and %b, %mask
  %shl = index.shl %a, %k
  %shrs = index.shrs %a, %k
  %shru = index.shru %a, %k
  return %divs, %divu, %rems, %remu, %ceil, %floor, %shl, %shrs, %shru : index, index, index, index, index, index, index, index, index
}
// CHECK:      %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK:      %[[ODD:.*]] = llvm.or %{{.*}}, %[[ONE]] : i64
// CHECK:      llvm.sdiv %{{.*}}, %[[ODD]] : i64
// CHECK:      llvm.udiv %{{.*}}, %[[ODD]] : i64
// CHECK:      llvm.srem %{{.*}}, %[[ODD]] : i64
// CHECK:      llvm.urem %{{.*}}, %[[ODD]] : i64
// CHECK:      %[[Q:.*]] = llvm.sdiv %{{.*}}, %[[ODD]] : i64
// CHECK:      llvm.icmp "eq" %{{.*}}, %{{.*}} : i1
// CHECK:      llvm.select %{{.*}}, %{{.*}}, %[[Q]] : i1, i64
// CHECK:      %[[Q2:.*]] = llvm.sdiv %{{.*}}, %[[ODD]] : i64
// CHECK:      llvm.icmp "ne" %{{.*}}, %{{.*}} : i1
// CHECK:      llvm.select %{{.*}}, %{{.*}}, %[[Q2]] : i1, i64
// CHECK:      llvm.shl %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.ashr %{{.*}}, %{{.*}} : i64
// CHECK:      llvm.lshr %{{.*}}, %{{.*}} : i64

// CHECK-LABEL: func.func @compare_and_cast
func.func @compare_and_cast(%a: index, %b: index, %x: i32) -> (i1, i1, index, index, i32, index, i1) {
  %lt = index.cmp slt(%a, %b)
  %uge = index.cmp uge(%a, %b)
  %s = index.casts %x : i32 to index
  %u = index.castu %x : i32 to index
  %t = index.casts %a : index to i32
  %size = index.sizeof
  %yes = index.bool.constant true
  return %lt, %uge, %s, %u, %t, %size, %yes : i1, i1, index, index, i32, index, i1
}
// CHECK-NEXT: %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
// CHECK-NEXT: %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
// CHECK-NEXT: %lt = llvm.icmp "slt" %[[A]], %[[B]] : i64
// CHECK:      %uge = llvm.icmp "uge" %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[S:.*]] = llvm.sext %x : i32 to i64
// CHECK-NEXT: %s = builtin.unrealized_conversion_cast %[[S]] : i64 to index
// CHECK-NEXT: %[[U:.*]] = llvm.zext %x : i32 to i64
// CHECK-NEXT: %u = builtin.unrealized_conversion_cast %[[U]] : i64 to index
// CHECK-NEXT: %[[A2:.*]] = builtin.unrealized_conversion_cast %a : index to i64
// CHECK-NEXT: %t = llvm.trunc %[[A2]] : i64 to i32
// CHECK-NEXT: %[[SIZE:.*]] = llvm.mlir.constant(64) : i64
// CHECK-NEXT: %size = builtin.unrealized_conversion_cast %[[SIZE]] : i64 to index
// CHECK-NEXT: %yes = llvm.mlir.constant(true) : i1
