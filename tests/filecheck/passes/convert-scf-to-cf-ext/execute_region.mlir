// scf.execute_region: its blocks inlined, entered by a branch; every
// scf.yield ending one of them branches to the continuation, whose
// arguments are the results.
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s

func.func @absolute(%x: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    %c = arith.constant 0 : i32
    %neg = arith.cmpi slt, %x, %c : i32
    cf.cond_br %neg, ^bb1, ^bb2
  ^bb1:
    %y = arith.subi %c, %x : i32
    scf.yield %y : i32
  ^bb2:
    scf.yield %x : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @absolute(%x: i32) -> i32
// CHECK-NEXT:    cf.br ^[[ENTRY:.*]]
// CHECK-NEXT:  ^[[ENTRY]]:
// CHECK-NEXT:    %c = arith.constant 0 : i32
// CHECK-NEXT:    %neg = arith.cmpi slt, %x, %c : i32
// CHECK-NEXT:    cf.cond_br %neg, ^[[NEG:.*]], ^[[POS:.*]]
// CHECK-NEXT:  ^[[NEG]]:
// CHECK-NEXT:    %y = arith.subi %c, %x : i32
// CHECK-NEXT:    cf.br ^[[JOIN:.*]](%y : i32)
// CHECK-NEXT:  ^[[POS]]:
// CHECK-NEXT:    cf.br ^[[JOIN]](%x : i32)
// CHECK-NEXT:  ^[[JOIN]](%r: i32):
// CHECK-NEXT:    func.return %r : i32

// Inside a loop, with an scf.if in it (lowered in turn).
func.func @in_loop(%m: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.execute_region {
      %v = memref.load %m[%i] : memref<4xi32>
      %z = arith.constant 0 : i32
      %pos = arith.cmpi sgt, %v, %z : i32
      scf.if %pos {
        %d = arith.addi %v, %v : i32
        memref.store %d, %m[%i] : memref<4xi32>
      }
      scf.yield
    }
  }
  return
}
// CHECK-LABEL: func.func @in_loop(
// CHECK-NOT:     scf.
// CHECK:         cf.cond_br %pos
// CHECK-NOT:     scf.
// CHECK:         func.return
