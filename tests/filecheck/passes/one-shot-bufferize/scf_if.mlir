// scf.if with tensor results: result i is the value either branch yields
// (one of the two, not known which). Its buffer type is the branches' common
// type, or a fully dynamic layout when they differ. A write through the
// result writes whichever buffer was chosen; a read after the if of a value
// a branch wrote in place would conflict, so that branch writes a copy.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// Choosing between two arguments, then writing the choice in place.
func.func @choose(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %e = linalg.exp ins(%r : tensor<4xf32>) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  return %e : tensor<4xf32>
}
// CHECK-LABEL: func.func @choose
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      scf.yield %a : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %b : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.exp ins(%0 : {{.*}}) outs(%0 : {{.*}})
// CHECK-NEXT:    func.return %0
// ANALYSIS-LABEL: func.func @choose
// ANALYSIS:         scf.yield {__inplace_operands_attr__ = ["true"]} %a
// ANALYSIS:         scf.yield {__inplace_operands_attr__ = ["true"]} %b
// ANALYSIS:         linalg.exp {{.*}}__inplace_operands_attr__ = ["true", "true"]

// A new tensor in one branch, an argument in the other: the new buffer is
// cast to the fully dynamic layout both can have.
func.func @fresh_in_one_branch(%c: i1, %a: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @fresh_in_one_branch
// CHECK:         %0 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      linalg.fill ins(%v : f32) outs(%1 : memref<4xf32>)
// CHECK-NEXT:      %2 = "memref.cast"(%1) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:      scf.yield %2 : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %a : memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    }
// CHECK-NOT:     memref.copy
// CHECK:         func.return %0 : memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @fresh_in_one_branch
// ANALYSIS:         linalg.fill {{.*}}__inplace_operands_attr__ = ["none", "true"]

// The then branch writes %a, which is read after the if: it writes a copy.
func.func @read_after_branch_write(%c: i1, %a: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %r = scf.if %c -> (tensor<4xf32>) {
    %w = tensor.insert %v into %a[%c0] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.sub ins(%r, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @read_after_branch_write
// CHECK:         %0 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%a, %1)
// CHECK-NEXT:      memref.store %v, %1[%c0] {rtcheck.origin = "tensor.insert"} : memref<4xf32>
// CHECK-NEXT:      %2 = "memref.cast"(%1)
// CHECK-NEXT:      scf.yield %2
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %a
// CHECK-NEXT:    }
// CHECK-NEXT:    %3 = memref.alloc()
// CHECK-NEXT:    linalg.sub ins(%0, %a : {{.*}}) outs(%3 : memref<4xf32>)
// ANALYSIS-LABEL: func.func @read_after_branch_write
// ANALYSIS-SAME:    %a: tensor<4xf32> {bufferization.access = "read"}
// ANALYSIS:         tensor.insert {{.*}}__inplace_operands_attr__ = ["none", "false", "none"]

// A conditional update of a loop's iter_arg: both branches yield buffers
// equivalent to it, so the loop stays in place.
func.func @if_in_loop(%x: tensor<4xf32>, %k: i32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x) -> (tensor<4xf32>) {
    %i32 = arith.index_cast %i : index to i32
    %c = arith.cmpi slt, %i32, %k : i32
    %v = tensor.extract %t[%i] : tensor<4xf32>
    %u = scf.if %c -> (tensor<4xf32>) {
      %w = arith.addf %v, %v : f32
      %t2 = tensor.insert %w into %t[%i] : tensor<4xf32>
      scf.yield %t2 : tensor<4xf32>
    } else {
      %w = arith.mulf %v, %v : f32
      %t3 = tensor.insert %w into %t[%i] : tensor<4xf32>
      scf.yield %t3 : tensor<4xf32>
    }
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @if_in_loop
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %x)
// CHECK:           %1 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK:             memref.store %w, %t[%i]
// CHECK-NEXT:        scf.yield %t
// CHECK-NEXT:      } else {
// CHECK:             memref.store %w_1, %t[%i]
// CHECK-NEXT:        scf.yield %t
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %1
// ANALYSIS-LABEL: func.func @if_in_loop
// ANALYSIS:         tensor.insert {{.*}}__inplace_operands_attr__ = ["none", "true", "none"]
// ANALYSIS:         tensor.insert {{.*}}__inplace_operands_attr__ = ["none", "true", "none"]
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
// ANALYSIS:         func.return {__inplace_operands_attr__ = ["true"], __equivalent_func_args__ = [0 : i64]}

// A loop in one branch: the loop's result is equivalent to %x.
func.func @loop_in_if(%c: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.if %c -> (tensor<4xf32>) {
    %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %x) -> (tensor<4xf32>) {
      %s = linalg.add ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    scf.yield %l : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @loop_in_if
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %x)
// CHECK-NEXT:        linalg.add ins(%t, %t : {{.*}}) outs(%t : {{.*}})
// CHECK-NEXT:        scf.yield %t
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %x
// ANALYSIS-LABEL: func.func @loop_in_if
// ANALYSIS-SAME:    -> tensor<4xf32>
// ANALYSIS:         func.return {__inplace_operands_attr__ = ["true"], __equivalent_func_args__ = [1 : i64]}
