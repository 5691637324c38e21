// rtcheck.assert splits its block like cf.assert: llvm.cond_br to the rest
// of the block, or to a block that stores its values, sign-extended to i64
// (index is i64 already), in a stack array and calls `_lx_fail` with its
// message template, the count and the array; then unreachable.
// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s
// Through `lower-to-llvm` to LLVM IR, `_lx_fail` is an external declaration
// (linalg_ext.jit defines it when it compiles the code):
// RUN: xdsl-opt %s -p lower-to-llvm -t llvm | filecheck %s --check-prefix=IR

// IR:      declare void @"_lx_fail"(ptr %{{.*}}, i64 %{{.*}}, ptr %{{.*}})
// IR:      call ccc void @"_lx_fail"([68 x i8]* @"__linalg_ext_assert_msg_0", i64 3, i64* %{{.*}})
// IR-NEXT: unreachable

// CHECK:      llvm.func @_lx_fail(!llvm.ptr, i64, !llvm.ptr)
// CHECK-NEXT: llvm.mlir.global private constant @__linalg_ext_assert_msg_0("memref.load: index [{}] is out of bounds of shape ({},) with k = {}\00") {addr_space = 0 : i32} : !llvm.array<68 x i8>

// Every input is in bounds: %i is clamped below %n + 1.
// CHECK-LABEL: func.func @checked
func.func @checked(%i: index, %k: i32) -> index {
  %n = arith.constant 8 : index
  %small = arith.minui %i, %n : index
  %ok = arith.cmpi ule, %small, %n : index
  %bound = arith.addi %n, %n : index
  rtcheck.assert %ok, "memref.load: index [{}] is out of bounds of shape ({},) with k = {}" (%small, %bound, %k : index, index, i32)
  return %small : index
}
// CHECK:        %[[I:.*]] = builtin.unrealized_conversion_cast %small : index to i64
// CHECK-NEXT:   %[[N:.*]] = builtin.unrealized_conversion_cast %bound : index to i64
// CHECK-NEXT:   llvm.cond_br %ok, ^[[REST:.*]], ^[[FAIL:.*]]
// CHECK-NEXT: ^[[REST]]:
// CHECK-NEXT:   func.return %small : index
// CHECK-NEXT: ^[[FAIL]]:
// CHECK-NEXT:   %[[K:.*]] = llvm.sext %k : i32 to i64
// CHECK-NEXT:   %[[MSG:.*]] = llvm.mlir.addressof @__linalg_ext_assert_msg_0 : !llvm.ptr
// CHECK-NEXT:   %[[COUNT:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:   %[[VALUES:.*]] = llvm.alloca %[[COUNT]] x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:   %[[P0:.*]] = llvm.getelementptr %[[VALUES]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:   llvm.store %[[I]], %[[P0]] : i64, !llvm.ptr
// CHECK-NEXT:   %[[P1:.*]] = llvm.getelementptr %[[VALUES]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:   llvm.store %[[N]], %[[P1]] : i64, !llvm.ptr
// CHECK-NEXT:   %[[P2:.*]] = llvm.getelementptr %[[VALUES]][2] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:   llvm.store %[[K]], %[[P2]] : i64, !llvm.ptr
// CHECK-NEXT:   llvm.call @_lx_fail(%[[MSG]], %[[COUNT]], %[[VALUES]]) : (!llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK-NEXT:   llvm.unreachable
