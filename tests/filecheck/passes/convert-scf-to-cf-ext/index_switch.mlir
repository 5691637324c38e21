// scf.index_switch: a chain of arith.cmpi eq and cf.cond_br, one test per
// case in order, the last falling through to the default region; every
// region branches to the continuation with the values it yields. (Upstream
// emits one cf.switch; the chain needs nothing beyond cf.cond_br
// downstream.)
// RUN: xdsl-opt %s -p convert-scf-to-cf-ext | filecheck %s

func.func @switch(%i: index) -> i32 {
  %r = scf.index_switch %i -> i32
  case 1 {
    %a = arith.constant 10 : i32
    scf.yield %a : i32
  }
  case 3 {
    %b = arith.constant 30 : i32
    scf.yield %b : i32
  }
  default {
    %d = arith.constant -1 : i32
    scf.yield %d : i32
  }
  return %r : i32
}
// CHECK-LABEL: func.func @switch(%i: index) -> i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[IS1:.*]] = arith.cmpi eq, %i, %[[C1]] : index
// CHECK-NEXT:    cf.cond_br %[[IS1]], ^[[CASE1:.*]], ^[[TEST3:.*]]
// CHECK-NEXT:  ^[[TEST3]]:
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[IS3:.*]] = arith.cmpi eq, %i, %[[C3]] : index
// CHECK-NEXT:    cf.cond_br %[[IS3]], ^[[CASE3:.*]], ^[[DEFAULT:.*]]
// CHECK-NEXT:  ^[[CASE1]]:
// CHECK-NEXT:    %a = arith.constant 10 : i32
// CHECK-NEXT:    cf.br ^[[JOIN:.*]](%a : i32)
// CHECK-NEXT:  ^[[CASE3]]:
// CHECK-NEXT:    %b = arith.constant 30 : i32
// CHECK-NEXT:    cf.br ^[[JOIN]](%b : i32)
// CHECK-NEXT:  ^[[DEFAULT]]:
// CHECK-NEXT:    %d = arith.constant -1 : i32
// CHECK-NEXT:    cf.br ^[[JOIN]](%d : i32)
// CHECK-NEXT:  ^[[JOIN]](%r: i32):
// CHECK-NEXT:    func.return %r : i32

// No results; only a default.
func.func @only_default(%i: index, %m: memref<4xindex>) {
  scf.index_switch %i
  default {
    memref.store %i, %m[%i] : memref<4xindex>
    scf.yield
  }
  return
}
// CHECK-LABEL: func.func @only_default(
// CHECK-NEXT:    cf.br ^[[DEFAULT:.*]]
// CHECK-NEXT:  ^[[DEFAULT]]:
// CHECK-NEXT:    memref.store %i, %m[%i] : memref<4xindex>
// CHECK-NEXT:    cf.br ^[[JOIN:.*]]
// CHECK-NEXT:  ^[[JOIN]]:
// CHECK-NEXT:    func.return
