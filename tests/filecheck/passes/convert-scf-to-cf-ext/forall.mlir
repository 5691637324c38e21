// scf.forall on memrefs (no shared outputs): a nest of scf.for, outermost
// dimension first, from the lower bounds (0 in the `in` form) to the upper
// bounds by the steps; each static bound a constant. Then lowered to cf
// like any scf.for. Running the iterations in order is one of the orders
// the op allows.
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s

func.func @double(%m: memref<4x?xf32>, %n: index) {
  scf.forall (%i, %j) in (4, %n) {
    %v = memref.load %m[%i, %j] : memref<4x?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%i, %j] : memref<4x?xf32>
  }
  return
}
// CHECK-LABEL: func.func @double(%m: memref<4x?xf32>, %n: index)
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    cf.br ^[[OUTER:.*]](%c0 : index)
// CHECK-NEXT:  ^[[OUTER]](%[[I:.*]]: index):
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpi slt, %[[I]], %c4 : index
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[OBODY:.*]], ^[[OEXIT:.*]]
// CHECK-NEXT:  ^[[OBODY]]:
// CHECK-NEXT:    cf.br ^[[INNER:.*]](%c0 : index)
// CHECK-NEXT:  ^[[INNER]](%[[J:.*]]: index):
// CHECK-NEXT:    %[[LT2:.*]] = arith.cmpi slt, %[[J]], %n : index
// CHECK-NEXT:    cf.cond_br %[[LT2]], ^[[IBODY:.*]], ^[[IEXIT:.*]]
// CHECK-NEXT:  ^[[IBODY]]:
// CHECK-NEXT:    %v = memref.load %m[%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK-NEXT:    %w = arith.addf %v, %v : f32
// CHECK-NEXT:    memref.store %w, %m[%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK-NEXT:    %[[J2:.*]] = arith.addi %[[J]], %c1 : index
// CHECK-NEXT:    cf.br ^[[INNER]](%[[J2]] : index)
// CHECK-NEXT:  ^[[IEXIT]]:
// CHECK-NEXT:    %[[I2:.*]] = arith.addi %[[I]], %c1 : index
// CHECK-NEXT:    cf.br ^[[OUTER]](%[[I2]] : index)
// CHECK-NEXT:  ^[[OEXIT]]:
// CHECK-NEXT:    func.return

// Explicit lower bounds and steps, mixed static and dynamic.
func.func @strided(%m: memref<8x8xi32>, %lo: index) {
  scf.forall (%i, %j) = (%lo, 1) to (8, 8) step (3, 2) {
    %a = arith.index_cast %i : index to i32
    %b = arith.index_cast %j : index to i32
    %s = arith.addi %a, %b : i32
    memref.store %s, %m[%i, %j] : memref<8x8xi32>
  }
  return
}
// CHECK-LABEL: func.func @strided(
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    cf.br ^[[OUTER:.*]](%lo : index)
// CHECK:         cf.br ^[[INNER:.*]](%c1 : index)
// CHECK:         arith.addi %{{.*}}, %c2 : index
// CHECK:         arith.addi %{{.*}}, %c3 : index
