// Casts: one LLVM cast each. index_cast is a sign extension or truncation
// from or to i64, or nothing for i64; bitcast between index and i64 is
// nothing.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @integers
func.func @integers(%a: i8, %b: i64) -> (i32, i32, i16) {
  %s = arith.extsi %a : i8 to i32
  %u = arith.extui %a : i8 to i32
  %t = arith.trunci %b : i64 to i16
  return %s, %u, %t : i32, i32, i16
}
// CHECK-NEXT: %s = llvm.sext %a : i8 to i32
// CHECK-NEXT: %u = llvm.zext %a : i8 to i32
// CHECK-NEXT: %t = llvm.trunc %b : i64 to i16

// Floats in [-1, 1] are scaled so that the integer conversions see values
// of several units; fptoui gets their magnitude (a negative one would be
// out of its range).
// CHECK-LABEL: func.func @floats
func.func @floats(%x: f32, %n: i32, %flag: i1) -> (f64, f32, f32, f64, i32, i16, f32) {
  %e = arith.extf %x : f32 to f64
  %t = arith.truncf %e : f64 to f32
  %s = arith.sitofp %n : i32 to f32
  %u = arith.uitofp %flag : i1 to f64
  %scale = arith.constant 300.0 : f32
  %big = arith.mulf %x, %scale : f32
  %fs = arith.fptosi %big : f32 to i32
  %mag = math.absf %big : f32
  %fu = arith.fptoui %mag : f32 to i16
  %bits = arith.bitcast %n : i32 to f32
  return %e, %t, %s, %u, %fs, %fu, %bits : f64, f32, f32, f64, i32, i16, f32
}
// CHECK-NEXT: %e = llvm.fpext %x : f32 to f64
// CHECK-NEXT: %t = llvm.fptrunc %e : f64 to f32
// CHECK-NEXT: %s = llvm.sitofp %n : i32 to f32
// CHECK-NEXT: %u = llvm.uitofp %flag : i1 to f64
// CHECK:      %fs = llvm.fptosi %big : f32 to i32
// CHECK-NEXT: %mag = math.absf %big : f32
// CHECK-NEXT: %fu = llvm.fptoui %mag : f32 to i16
// CHECK-NEXT: %bits = llvm.bitcast %n : i32 to f32

// CHECK-LABEL: func.func @index_casts
func.func @index_casts(%i: index, %a: i32, %b: i64) -> (i32, index, i64, index) {
  %narrow = arith.index_cast %i : index to i32
  %wide = arith.index_cast %a : i32 to index
  %same = arith.index_cast %i : index to i64
  %bits = arith.bitcast %b : i64 to index
  return %narrow, %wide, %same, %bits : i32, index, i64, index
}
// CHECK-NEXT: %[[I:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %narrow = llvm.trunc %[[I]] : i64 to i32
// CHECK-NEXT: %[[A:.*]] = llvm.sext %a : i32 to i64
// CHECK-NEXT: %wide = builtin.unrealized_conversion_cast %[[A]] : i64 to index
// CHECK-NEXT: %same = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT: %bits = builtin.unrealized_conversion_cast %b : i64 to index
// CHECK-NEXT: func.return %narrow, %wide, %same, %bits : i32, index, i64, index
