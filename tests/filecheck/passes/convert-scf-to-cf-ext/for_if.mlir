// scf.for and scf.if (xDSL's lowerings, upstream's form): a loop becomes a
// condition block whose arguments are the induction variable and the
// carried values, testing iv < ub, a body branching back with iv + step,
// and an exit whose values replace the loop's results; an if becomes a
// conditional branch to its inlined regions, which branch to a
// continuation block whose arguments are the results.
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s

// A sum of the positive elements below %n.
func.func @sum_positive(%m: memref<8xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %m[%i] : memref<8xi32>
    %pos = arith.cmpi sgt, %v, %z : i32
    %t = scf.if %pos -> (i32) {
      %u = arith.addi %acc, %v : i32
      scf.yield %u : i32
    } else {
      scf.yield %acc : i32
    }
    scf.yield %t : i32
  }
  return %s : i32
}
// CHECK-LABEL: func.func @sum_positive(%m: memref<8xi32>, %n: index) -> i32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %z = arith.constant 0 : i32
// CHECK-NEXT:    cf.br ^[[COND:.*]](%c0, %z : index, i32)
// CHECK-NEXT:  ^[[COND]](%i: index, %acc: i32):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %i, %n : index
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %v = memref.load %m[%i] : memref<8xi32>
// CHECK-NEXT:    %pos = arith.cmpi sgt, %v, %z : i32
// CHECK-NEXT:    cf.cond_br %pos, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK-NEXT:  ^[[THEN]]:
// CHECK-NEXT:    %u = arith.addi %acc, %v : i32
// CHECK-NEXT:    cf.br ^[[JOIN:.*]](%u : i32)
// CHECK-NEXT:  ^[[ELSE]]:
// CHECK-NEXT:    cf.br ^[[JOIN]](%acc : i32)
// CHECK-NEXT:  ^[[JOIN]](%t: i32):
// CHECK-NEXT:    cf.br ^[[LATCH:.*]]
// CHECK-NEXT:  ^[[LATCH]]:
// CHECK-NEXT:    %[[NEXT:.*]] = arith.addi %i, %c1 : index
// CHECK-NEXT:    cf.br ^[[COND]](%[[NEXT]], %t : index, i32)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    func.return %acc : i32

// An if without else and results; loops nested, with a step.
func.func @clamp_negative(%m: memref<4x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c1 to %c6 step %c2 {
      %v = memref.load %m[%i, %j] : memref<4x6xf32>
      %neg = arith.cmpf olt, %v, %zero : f32
      scf.if %neg {
        memref.store %zero, %m[%i, %j] : memref<4x6xf32>
      }
    }
  }
  return
}
// CHECK-LABEL: func.func @clamp_negative(
// CHECK:         cf.br ^[[OUTER:.*]](%c0 : index)
// CHECK-NEXT:  ^[[OUTER]](%i: index):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %i, %c4 : index
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[OBODY:.*]], ^[[OEXIT:.*]]
// CHECK-NEXT:  ^[[OBODY]]:
// CHECK-NEXT:    cf.br ^[[INNER:.*]](%c1 : index)
// CHECK-NEXT:  ^[[INNER]](%j: index):
// CHECK-NEXT:    %[[LT2:.*]] = arith.cmpi slt, %j, %c6 : index
// CHECK-NEXT:    cf.cond_br %[[LT2]], ^[[IBODY:.*]], ^[[IEXIT:.*]]
// CHECK-NEXT:  ^[[IBODY]]:
// CHECK-NEXT:    %v = memref.load %m[%i, %j] : memref<4x6xf32>
// CHECK-NEXT:    %neg = arith.cmpf olt, %v, %zero : f32
// CHECK-NEXT:    cf.cond_br %neg, ^[[THEN:.*]], ^[[JOIN:.*]]
// CHECK-NEXT:  ^[[THEN]]:
// CHECK-NEXT:    memref.store %zero, %m[%i, %j] : memref<4x6xf32>
// CHECK-NEXT:    cf.br ^[[JOIN]]
// CHECK-NEXT:  ^[[JOIN]]:
// CHECK-NEXT:    %[[J2:.*]] = arith.addi %j, %c2 : index
// CHECK-NEXT:    cf.br ^[[INNER]](%[[J2]] : index)
// CHECK-NEXT:  ^[[IEXIT]]:
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %i, %c1 : index
// CHECK-NEXT:    cf.br ^[[OUTER]](%[[I2]] : index)
// CHECK-NEXT:  ^[[OEXIT]]:
// CHECK-NEXT:    func.return
