// 1-D vector ops on values: broadcast (insertelement + zero-mask shuffle),
// fma (llvm.intr.fma, one rounding), reductions (ordered fadd/fmul from the
// accumulator or the identity, the fmax/fmin/fmaximum/fminimum and integer
// reductions, an accumulator joined by the scalar op). Loads and stores are
// left to finalize-memref-to-llvm. The functions take and return memrefs and
// scalars only (vectors cross no call boundary), so that test_pass_meaning
// can run each on the interpreter and compiled natively.
// RUN: xdsl-opt %s -p convert-vector-to-llvm-ext | filecheck %s

func.func @values(%s: f32, %x: memref<2x16xf32>, %out: memref<2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = vector.load %x[%c0, %c0] : memref<2x16xf32>, vector<16xf32>
  %b = vector.load %x[%c1, %c0] : memref<2x16xf32>, vector<16xf32>
  %v = vector.broadcast %s : f32 to vector<16xf32>
  %f = vector.fma %a, %b, %v : vector<16xf32>
  vector.store %v, %out[%c0, %c0] : memref<2x16xf32>, vector<16xf32>
  vector.store %f, %out[%c1, %c0] : memref<2x16xf32>, vector<16xf32>
  return
}
// CHECK-LABEL: func.func @values
// CHECK:      %a = vector.load %x[%c0, %c0] : memref<2x16xf32>, vector<16xf32>
// CHECK-NEXT: %b = vector.load %x[%c1, %c0] : memref<2x16xf32>, vector<16xf32>
// CHECK-NEXT: %[[POISON:.*]] = llvm.mlir.poison : vector<16xf32>
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[LANE0:.*]] = llvm.insertelement %s, %[[POISON]][%[[ZERO]] : i32] : vector<16xf32>
// CHECK-NEXT: %v = llvm.shufflevector %[[LANE0]], %[[POISON]] [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32>
// CHECK-NEXT: %f = llvm.intr.fma(%a, %b, %v) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
// CHECK-NEXT: vector.store %v, %out[%c0, %c0] : memref<2x16xf32>, vector<16xf32>
// CHECK-NEXT: vector.store %f, %out[%c1, %c0] : memref<2x16xf32>, vector<16xf32>

func.func @reductions(%x: memref<8xf32>, %acc: f32, %y: memref<4xi32>, %k: i32) -> (f32, f32, f32, f32, f32, i32, i32) {
  %c0 = arith.constant 0 : index
  %a = vector.load %x[%c0] : memref<8xf32>, vector<8xf32>
  %i = vector.load %y[%c0] : memref<4xi32>, vector<4xi32>
  %0 = vector.reduction <add>, %a : vector<8xf32> into f32
  %1 = vector.reduction <mul>, %a, %acc fastmath<reassoc> : vector<8xf32> into f32
  %2 = vector.reduction <maxnumf>, %a, %acc : vector<8xf32> into f32
  %3 = vector.reduction <minimumf>, %a : vector<8xf32> into f32
  %4 = vector.reduction <maximumf>, %a, %acc : vector<8xf32> into f32
  %5 = vector.reduction <add>, %i, %k : vector<4xi32> into i32
  %6 = vector.reduction <maxsi>, %i : vector<4xi32> into i32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, i32, i32
}
// CHECK-LABEL: func.func @reductions
// CHECK:      %i = vector.load %y[%c0] : memref<4xi32>, vector<4xi32>
// CHECK-NEXT: %[[NEGZERO:.*]] = llvm.mlir.constant(-0.000000e+00 : f32) : f32
// CHECK-NEXT: %[[R0:.*]] = "llvm.intr.vector.reduce.fadd"(%[[NEGZERO]], %a) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<8xf32>) -> f32
// CHECK-NEXT: %[[R1:.*]] = "llvm.intr.vector.reduce.fmul"(%acc, %a) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<8xf32>) -> f32
// CHECK-NEXT: %[[MAX:.*]] = llvm.intr.vector.reduce.fmax(%a) : (vector<8xf32>) -> f32
// CHECK-NEXT: %[[R2:.*]] = llvm.intr.maxnum(%[[MAX]], %acc) : (f32, f32) -> f32
// CHECK-NEXT: %[[R3:.*]] = llvm.intr.vector.reduce.fminimum(%a) : (vector<8xf32>) -> f32
// CHECK-NEXT: %[[MAXIMUM:.*]] = llvm.intr.vector.reduce.fmaximum(%a) : (vector<8xf32>) -> f32
// CHECK-NEXT: %[[R4:.*]] = llvm.intr.maximum(%[[MAXIMUM]], %acc) : (f32, f32) -> f32
// CHECK-NEXT: %[[SUM:.*]] = llvm.intr.vector.reduce.add(%i) : (vector<4xi32>) -> i32
// CHECK-NEXT: %[[R5:.*]] = llvm.add %[[SUM]], %k : i32
// CHECK-NEXT: %[[R6:.*]] = llvm.intr.vector.reduce.smax(%i) : (vector<4xi32>) -> i32
// CHECK-NEXT: func.return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]], %[[R6]] : f32, f32, f32, f32, f32, i32, i32

func.func @memory(%m: memref<4x16xf32>, %i: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%i, %i] : memref<4x16xf32>, vector<8xf32>
  vector.store %v, %out[%c0] : memref<8xf32>, vector<8xf32>
  return
}
// CHECK-LABEL: func.func @memory
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %v = vector.load %m[%i, %i] : memref<4x16xf32>, vector<8xf32>
// CHECK-NEXT: vector.store %v, %out[%c0] : memref<8xf32>, vector<8xf32>
// CHECK-NEXT: func.return
