// cf.assert splits its block: llvm.cond_br to the rest of the block, or to
// a block that calls the run-time failure function `_lx_fail` with the
// interpreter's message ("cf.assert failed: <msg>", a null-terminated
// private constant global), no values, and is unreachable. `_lx_fail` is
// declared once, each message is stored once.
// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s

// CHECK:      llvm.func @_lx_fail(!llvm.ptr, i64, !llvm.ptr)
// CHECK-NEXT: llvm.mlir.global private constant @__linalg_ext_assert_msg_0("cf.assert failed: never negative\00") {addr_space = 0 : i32} : !llvm.array<33 x i8>
// CHECK-NEXT: llvm.mlir.global private constant @__linalg_ext_assert_msg_1("cf.assert failed: small {{[{][{]}}n{{[}][}]}}\00") {addr_space = 0 : i32} : !llvm.array<30 x i8>

// The conditions hold for every input.
// CHECK-LABEL: func.func @checked
func.func @checked(%x: f32, %i: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %a = math.absf %x : f32
  %ok = arith.cmpf oge, %a, %zero : f32
  cf.assert %ok, "never negative"
  %r = math.sqrt %a : f32
  %limit = arith.constant 100 : index
  %small = arith.cmpi ult, %i, %limit : index
  %big = arith.constant 1 : i1
  %any = arith.ori %small, %big : i1
  cf.assert %any, "small {n}"
  %again = arith.cmpf oge, %r, %zero : f32
  cf.assert %again, "never negative"
  return %r : f32
}
// CHECK:        %ok = arith.cmpf oge, %a, %zero : f32
// CHECK-NEXT:   llvm.cond_br %ok, ^[[REST:.*]], ^[[FAIL:.*]]
// CHECK-NEXT: ^[[REST]]:
// CHECK-NEXT:   %r = math.sqrt %a : f32
// CHECK:        llvm.cond_br %any, ^[[REST2:.*]], ^[[FAIL2:.*]]
// CHECK-NEXT: ^[[REST2]]:
// CHECK:        llvm.cond_br %again, ^[[REST3:.*]], ^[[FAIL3:.*]]
// CHECK-NEXT: ^[[REST3]]:
// CHECK-NEXT:   func.return %r : f32
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT:   %[[MSG:.*]] = llvm.mlir.addressof @__linalg_ext_assert_msg_0 : !llvm.ptr
// CHECK-NEXT:   %[[COUNT:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:   %[[NONE:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:   llvm.call @_lx_fail(%[[MSG]], %[[COUNT]], %[[NONE]]) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NEXT:   llvm.unreachable
// CHECK-NEXT: ^[[FAIL2]]:
// CHECK-NEXT:   %{{.*}} = llvm.mlir.addressof @__linalg_ext_assert_msg_1 : !llvm.ptr
// CHECK:      ^[[FAIL3]]:
// CHECK-NEXT:   %{{.*}} = llvm.mlir.addressof @__linalg_ext_assert_msg_0 : !llvm.ptr
