// cf.br and cf.cond_br become llvm.br and llvm.cond_br; the arguments of the
// blocks they lead to get their LLVM types (index is i64), the block's ops
// seeing the original type through a cast; operands are cast to match.
// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s

// The sum of 0 .. n-1, in a loop of blocks (n is small: index inputs are).
// CHECK-LABEL: func.func @sum_below
func.func @sum_below(%n: index) -> index {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  cf.br ^loop(%zero, %zero : index, index)
^loop(%i: index, %total: index):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^done
^body:
  %next_total = arith.addi %total, %i : index
  %next = arith.addi %i, %one : index
  cf.br ^loop(%next, %next_total : index, index)
^done:
  return %total : index
}
// CHECK:      %[[Z0:.*]] = builtin.unrealized_conversion_cast %zero : index to i64
// CHECK-NEXT: %[[Z1:.*]] = builtin.unrealized_conversion_cast %zero : index to i64
// CHECK-NEXT: llvm.br ^loop(%[[Z0]], %[[Z1]] : i64, i64)
// CHECK-NEXT: ^loop(%i: i64, %total: i64):
// CHECK-NEXT:   %[[T:.*]] = builtin.unrealized_conversion_cast %total : i64 to index
// CHECK-NEXT:   %[[I:.*]] = builtin.unrealized_conversion_cast %i : i64 to index
// CHECK-NEXT:   %more = arith.cmpi slt, %[[I]], %n : index
// CHECK-NEXT:   llvm.cond_br %more, ^body, ^done
// CHECK-NEXT: ^body:
// CHECK-NEXT:   %next_total = arith.addi %[[T]], %[[I]] : index
// CHECK-NEXT:   %next = arith.addi %[[I]], %one : index
// CHECK-NEXT:   %[[NI:.*]] = builtin.unrealized_conversion_cast %next : index to i64
// CHECK-NEXT:   %[[NT:.*]] = builtin.unrealized_conversion_cast %next_total : index to i64
// CHECK-NEXT:   llvm.br ^loop(%[[NI]], %[[NT]] : i64, i64)
// CHECK-NEXT: ^done:
// CHECK-NEXT:   func.return %[[T]] : index

// One block reached with two different operands: LLVM IR cannot (its phi
// would get two values from one predecessor), so the else edge goes
// through a new block.
// CHECK-LABEL: func.func @same_destination
func.func @same_destination(%c: i1, %x: f32, %y: f32) -> f32 {
  cf.cond_br %c, ^join(%x : f32), ^join(%y : f32)
^join(%v: f32):
  return %v : f32
}
// CHECK-NEXT:   llvm.cond_br %c, ^join(%x : f32), ^[[EDGE:.*]]
// CHECK-NEXT: ^[[EDGE]]:
// CHECK-NEXT:   llvm.br ^join(%y : f32)
// CHECK-NEXT: ^join(%v: f32):
// CHECK-NEXT:   func.return %v : f32

// With the same operands both edges go straight there.
// CHECK-LABEL: func.func @same_operands
func.func @same_operands(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^join(%x : i32), ^join(%x : i32)
^join(%v: i32):
  return %v : i32
}
// CHECK-NEXT:   llvm.cond_br %c, ^join(%x : i32), ^join(%x : i32)

// A memref block argument becomes its descriptor.
// CHECK-LABEL: func.func @memref_argument
func.func @memref_argument(%c: i1, %a: memref<4xf32>, %b: memref<4xf32>) -> f32 {
  cf.cond_br %c, ^read(%a : memref<4xf32>), ^read(%b : memref<4xf32>)
^read(%m: memref<4xf32>):
  %i = arith.constant 2 : index
  %v = memref.load %m[%i] : memref<4xf32>
  return %v : f32
}
// CHECK:      ^read(%m: !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>):
// CHECK-NEXT:   %[[M:.*]] = builtin.unrealized_conversion_cast %m : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)> to memref<4xf32>
// CHECK:        %v = memref.load %[[M]][%i] : memref<4xf32>
