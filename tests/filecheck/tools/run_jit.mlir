// RUN: linalg-ext-run %s --backend jit --seed 1 | filecheck %s --check-prefixes=CHECK,JIT
// RUN: linalg-ext-run %s --seed 1 | filecheck %s

// A memref program run from the command line, compiled natively and on the
// interpreter: the same values. @squares writes i*i into its output and
// returns the sum of squares of the first n (seed 1 draws n = 3).

func.func @squares(%out: memref<6xi64>, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0 : i64
  %sum = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (i64) {
    %v = arith.index_cast %i : index to i64
    %sq = arith.muli %v, %v : i64
    memref.store %sq, %out[%i] : memref<6xi64>
    %in = arith.cmpi slt, %i, %n : index
    %add = arith.select %in, %sq, %zero : i64
    %next = arith.addi %acc, %add : i64
    scf.yield %next : i64
  }
  return %sum : i64
}

// JIT:   compiled natively in {{[0-9.]+}} s
// CHECK: @squares: 1 result(s)
// CHECK: result #0: i64
// CHECK-NEXT: {{^}}5{{$}}
// CHECK: argument #0 after the call: memref<6xi64>, shape (6,), dtype int64
// CHECK-NEXT: [ 0  1  4  9 16 25]
