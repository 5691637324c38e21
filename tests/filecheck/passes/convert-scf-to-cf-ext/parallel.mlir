// scf.parallel: a nest of scf.for, outermost dimension first, then lowered
// to cf like any scf.for. A reduction is carried in iter_args: it starts as
// its init and each iteration combines the reduced value into it with the
// scf.reduce region (accumulator first). xDSL 0.74 parses scf.parallel in
// the generic form only.
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s --check-prefix=NOSCF

// Squares every element and returns the sum of the original ones.
func.func @square_and_sum(%m: memref<4x3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  %s = "scf.parallel"(%c0, %c0, %c4, %c3, %c1, %c1, %z) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
  ^bb0(%i: index, %j: index):
    %v = memref.load %m[%i, %j] : memref<4x3xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %m[%i, %j] : memref<4x3xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }) : (index, index, index, index, index, index, f32) -> f32
  return %s : f32
}
// CHECK-LABEL: func.func @square_and_sum(
// CHECK:         cf.br ^[[OUTER:.*]](%c0, %z : index, f32)
// CHECK-NEXT:  ^[[OUTER]](%i: index, %[[ACC:.*]]: f32):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %i, %c4 : index
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[OBODY:.*]], ^[[OEXIT:.*]]
// CHECK-NEXT:  ^[[OBODY]]:
// CHECK-NEXT:    cf.br ^[[INNER:.*]](%c0, %[[ACC]] : index, f32)
// CHECK-NEXT:  ^[[INNER]](%j: index, %a: f32):
// CHECK-NEXT:    %[[LT2:.*]] = arith.cmpi slt, %j, %c3 : index
// CHECK-NEXT:    cf.cond_br %[[LT2]], ^[[IBODY:.*]], ^[[IEXIT:.*]]
// CHECK-NEXT:  ^[[IBODY]]:
// CHECK-NEXT:    %v = memref.load %m[%i, %j] : memref<4x3xf32>
// CHECK-NEXT:    %w = arith.mulf %v, %v : f32
// CHECK-NEXT:    memref.store %w, %m[%i, %j] : memref<4x3xf32>
// CHECK-NEXT:    %t = arith.addf %a, %v : f32
// CHECK-NEXT:    %[[J2:.*]] = arith.addi %j, %c1 : index
// CHECK-NEXT:    cf.br ^[[INNER]](%[[J2]], %t : index, f32)
// CHECK-NEXT:  ^[[IEXIT]]:
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %i, %c1 : index
// CHECK-NEXT:    cf.br ^[[OUTER]](%[[I2]], %a : index, f32)
// CHECK-NEXT:  ^[[OEXIT]]:
// CHECK-NEXT:    func.return %[[ACC]] : f32
// NOSCF-NOT: scf.

// Two reductions (a max and a count), dynamic bounds and a step.
func.func @max_and_count(%m: memref<?xi32>, %n: index) -> (i32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %low = arith.constant -100 : i32
  %r:2 = "scf.parallel"(%c1, %n, %c2, %low, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
  ^bb0(%i: index):
    %v = memref.load %m[%i] : memref<?xi32>
    "scf.reduce"(%v, %c1) ({
    ^bb0(%a: i32, %b: i32):
      %x = arith.maxsi %a, %b : i32
      scf.reduce.return %x : i32
    }, {
    ^bb0(%a: index, %b: index):
      %y = arith.addi %a, %b : index
      scf.reduce.return %y : index
    }) : (i32, index) -> ()
  }) : (index, index, index, i32, index) -> (i32, index)
  return %r#0, %r#1 : i32, index
}
// CHECK-LABEL: func.func @max_and_count(
// CHECK:         cf.br ^[[LOOP:.*]](%c1, %low, %c0 : index, i32, index)
// CHECK-NEXT:  ^[[LOOP]](%i: index, %a: i32, %a_1: index):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %i, %n : index
// CHECK:         %v = memref.load %m[%i] : memref<?xi32>
// CHECK-NEXT:    %x = arith.maxsi %a, %v : i32
// CHECK-NEXT:    %y = arith.addi %a_1, %c1 : index
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %i, %c2 : index
// CHECK-NEXT:    cf.br ^[[LOOP]](%[[I2]], %x, %y : index, i32, index)
// CHECK-NEXT:  ^{{.*}}:
// CHECK-NEXT:    func.return %a, %a_1 : i32, index
