// cf.assert splits its block: llvm.cond_br to the rest of the block, or to
// a block that writes the message and a newline to stderr (a private
// constant global, `write(2, ...)`), calls abort and is unreachable. The
// declarations and the global are added once.
// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s

// CHECK:      llvm.func @write(i32, !llvm.ptr, i64) -> i64
// CHECK-NEXT: llvm.func @abort()
// CHECK-NEXT: llvm.mlir.global private constant @__linalg_ext_assert_msg_0("never negative\0A") {addr_space = 0 : i32} : !llvm.array<15 x i8>
// CHECK-NEXT: llvm.mlir.global private constant @__linalg_ext_assert_msg_1("small\0A") {addr_space = 0 : i32} : !llvm.array<6 x i8>

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
  cf.assert %small, "small"
  %again = arith.cmpf oge, %r, %zero : f32
  cf.assert %again, "never negative"
  return %r : f32
}
// CHECK:        %ok = arith.cmpf oge, %a, %zero : f32
// CHECK-NEXT:   llvm.cond_br %ok, ^[[REST:.*]], ^[[FAIL:.*]]
// CHECK-NEXT: ^[[REST]]:
// CHECK-NEXT:   %r = math.sqrt %a : f32
// CHECK:        llvm.cond_br %small, ^[[REST2:.*]], ^[[FAIL2:.*]]
// CHECK-NEXT: ^[[REST2]]:
// CHECK:        llvm.cond_br %again, ^[[REST3:.*]], ^[[FAIL3:.*]]
// CHECK-NEXT: ^[[REST3]]:
// CHECK-NEXT:   func.return %r : f32
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT:   %[[MSG:.*]] = llvm.mlir.addressof @__linalg_ext_assert_msg_0 : !llvm.ptr
// CHECK-NEXT:   %[[FD:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:   %[[LEN:.*]] = llvm.mlir.constant(15) : i64
// CHECK-NEXT:   %{{.*}} = llvm.call @write(%[[FD]], %[[MSG]], %[[LEN]]) : (i32, !llvm.ptr, i64) -> i64
// CHECK-NEXT:   llvm.call @abort() : () -> ()
// CHECK-NEXT:   llvm.unreachable
// CHECK-NEXT: ^[[FAIL2]]:
// CHECK-NEXT:   %{{.*}} = llvm.mlir.addressof @__linalg_ext_assert_msg_1 : !llvm.ptr
// CHECK:      ^[[FAIL3]]:
// CHECK-NEXT:   %{{.*}} = llvm.mlir.addressof @__linalg_ext_assert_msg_0 : !llvm.ptr
