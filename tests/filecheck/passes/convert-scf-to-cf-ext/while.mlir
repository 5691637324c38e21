// scf.while: entered with its operands at the `before` region; its
// scf.condition branches to `after` or out with the forwarded values (the
// results); `after` yields back to `before`.
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s

// Triangular numbers: 0 + 1 + ... + (n - 1), and the count.
func.func @triangle(%n: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%i = %c0, %s = %c0) : (i32, i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %i, %n : i32
    scf.condition(%lt) %i, %s : i32, i32
  } do {
  ^bb0(%i2: i32, %s2: i32):
    %i3 = arith.addi %i2, %c1 : i32
    %s3 = arith.addi %s2, %i2 : i32
    scf.yield %i3, %s3 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
// CHECK-LABEL: func.func @triangle(%n: i32) -> (i32, i32)
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    cf.br ^[[BEFORE:.*]](%c0, %c0 : i32, i32)
// CHECK-NEXT:  ^[[BEFORE]](%i: i32, %s: i32):
// CHECK-NEXT:    %lt = arith.cmpi slt, %i, %n : i32
// CHECK-NEXT:    cf.cond_br %lt, ^[[AFTER:.*]](%i, %s : i32, i32), ^[[EXIT:.*]](%i, %s : i32, i32)
// CHECK-NEXT:  ^[[AFTER]](%i2: i32, %s2: i32):
// CHECK-NEXT:    %i3 = arith.addi %i2, %c1 : i32
// CHECK-NEXT:    %s3 = arith.addi %s2, %i2 : i32
// CHECK-NEXT:    cf.br ^[[BEFORE]](%i3, %s3 : i32, i32)
// CHECK-NEXT:  ^[[EXIT]](%[[R0:.*]]: i32, %[[R1:.*]]: i32):
// CHECK-NEXT:    func.return %[[R0]], %[[R1]] : i32, i32

// A do-while: the body is in `before`; the after region forwards.
// Halves %x until it is odd or zero, writing each value.
func.func @halve(%x: i32, %out: memref<8xi32>) -> (i32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %k:2 = scf.while (%v = %x, %i = %c0) : (i32, index) -> (i32, index) {
    memref.store %v, %out[%i] : memref<8xi32>
    %odd = arith.andi %v, %one : i32
    %even = arith.cmpi eq, %odd, %zero : i32
    %nz = arith.cmpi ne, %v, %zero : i32
    %go = arith.andi %even, %nz : i1
    %h = arith.shrsi %v, %one : i32
    %j = arith.addi %i, %c1 : index
    scf.condition(%go) %h, %j : i32, index
  } do {
  ^bb0(%h2: i32, %j2: index):
    scf.yield %h2, %j2 : i32, index
  }
  return %k#0, %k#1 : i32, index
}
// CHECK-LABEL: func.func @halve(
// CHECK:         cf.br ^[[BEFORE:.*]](%x, %c0 : i32, index)
// CHECK-NEXT:  ^[[BEFORE]](%v: i32, %i: index):
// CHECK-NEXT:    memref.store %v, %out[%i] : memref<8xi32>
// CHECK:         cf.cond_br %go, ^[[AFTER:.*]](%h, %j : i32, index), ^[[EXIT:.*]](%h, %j : i32, index)
// CHECK-NEXT:  ^[[AFTER]](%h2: i32, %j2: index):
// CHECK-NEXT:    cf.br ^[[BEFORE]](%h2, %j2 : i32, index)
// CHECK-NEXT:  ^[[EXIT]](%[[H:.*]]: i32, %[[K:.*]]: index):
// CHECK-NEXT:    func.return %[[H]], %[[K]] : i32, index
