// Constants become llvm.mlir.constant of the converted type: an index
// constant is an i64 one, cast back for its users.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s

// CHECK-LABEL: func.func @scalars
func.func @scalars(%x: f32, %y: f64, %n: i32, %i: index, %c: i1) -> (f32, f64, i32, index, i1) {
  %half = arith.constant 0.5 : f32
  %tiny = arith.constant -2.5e-300 : f64
  %seven = arith.constant -7 : i32
  %four = arith.constant 4 : index
  %yes = arith.constant true
  %a = arith.addf %x, %half : f32
  %b = arith.mulf %y, %tiny : f64
  %d = arith.addi %n, %seven : i32
  %e = arith.addi %i, %four : index
  %f = arith.xori %c, %yes : i1
  return %a, %b, %d, %e, %f : f32, f64, i32, index, i1
}
// CHECK-NEXT: %half = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-NEXT: %tiny = llvm.mlir.constant(-2.500000e-300 : f64) : f64
// CHECK-NEXT: %seven = llvm.mlir.constant(-7 : i32) : i32
// CHECK-NEXT: %[[FOUR:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT: %four = builtin.unrealized_conversion_cast %[[FOUR]] : i64 to index
// CHECK-NEXT: %yes = llvm.mlir.constant(true) : i1
// CHECK:      %[[E:.*]] = llvm.add %{{.*}}, %[[FOUR]] : i64
// CHECK:      %f = llvm.xor %c, %yes : i1

// Special float values keep their bits.
// CHECK-LABEL: func.func @special_floats
func.func @special_floats(%x: f32) -> (f32, f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %inf = arith.constant 0x7F800000 : f32
  %negzero = arith.constant -0.0 : f32
  %a = arith.addf %x, %nan : f32
  %b = arith.minimumf %x, %inf : f32
  %c = arith.maximumf %x, %negzero : f32
  return %a, %b, %c : f32, f32, f32
}
// CHECK-NEXT: %nan = llvm.mlir.constant(0x7fc00000 : f32) : f32
// CHECK-NEXT: %inf = llvm.mlir.constant(0x7f800000 : f32) : f32
// CHECK-NEXT: %negzero = llvm.mlir.constant(-0.000000e+00 : f32) : f32
