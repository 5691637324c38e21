// Loops whose body yields a value that is not its iter_arg's buffer. By
// default one-shot-bufferize refuses them (the loop would return a new
// buffer each iteration); with allow-return-allocs-from-loops it accepts
// them, and a yielded value that may share a buffer from outside the loop
// (another iter_arg, an argument) is copied into a new buffer first.
// RUN: xdsl-opt --verify-diagnostics %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s --check-prefix=REFUSED
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true allow-return-allocs-from-loops=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true allow-return-allocs-from-loops=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// REFUSED: one-shot-bufferize: 'scf.for': yield operand #0 is not equivalent to the corresponding iter_arg (the loop would return a new buffer; pass allow-return-allocs-from-loops to allow it)

// Each iteration computes into a new tensor and yields it.
func.func @fresh_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%acc, %acc : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// The new buffer is yielded as is (cast to the iter_arg's type).
// CHECK-LABEL: func.func @fresh_yield
// CHECK:         %0 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      linalg.add ins(%acc, %acc : {{.*}}) outs(%1 : memref<4xf32>)
// CHECK-NEXT:      %2 = "memref.cast"(%1) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:      scf.yield %2
// CHECK-NEXT:    }
// CHECK-NOT:     memref.copy
// ANALYSIS-LABEL: func.func @fresh_yield
// ANALYSIS:         linalg.add {{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

// The iter_args trade places: each yielded value is the other iter_arg's
// buffer, so both are copied before being yielded.
func.func @swap(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%p = %a, %q = %b) -> (tensor<4xf32>, tensor<4xf32>) {
    %s = linalg.add ins(%p, %q : tensor<4xf32>, tensor<4xf32>) outs(%p : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %q, %s : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @swap
// CHECK:         %0, %1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%p = %a, %q = %b)
// CHECK-NEXT:      linalg.add ins(%p, %q : {{.*}}) outs(%p : {{.*}})
// CHECK-NEXT:      %2 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%q, %2)
// CHECK-NEXT:      %3 = "memref.cast"(%2)
// CHECK-NEXT:      %4 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%p, %4)
// CHECK-NEXT:      %5 = "memref.cast"(%4)
// CHECK-NEXT:      scf.yield %3, %5
// ANALYSIS-LABEL: func.func @swap
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true", "true"]}

// The init is a new (identity-layout) buffer; the body yields either a new
// buffer or the argument %x (copied, as it is from outside the loop): the
// iter_arg keeps the identity layout of the copies.
func.func @argument_or_new(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %f) -> (tensor<4xf32>) {
    %u = scf.if %c -> (tensor<4xf32>) {
      %s = linalg.add ins(%t, %t : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    } else {
      scf.yield %x : tensor<4xf32>
    }
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @argument_or_new
// CHECK:         %1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %0) -> (memref<4xf32>) {
// CHECK-NEXT:      %2 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK:           } else {
// CHECK-NEXT:        scf.yield %x
// CHECK-NEXT:      }
// CHECK-NEXT:      %5 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      "memref.copy"(%2, %5)
// CHECK-NEXT:      scf.yield %5 : memref<4xf32>
// ANALYSIS-LABEL: func.func @argument_or_new
// ANALYSIS:         linalg.add {{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// The yielded buffer has a fully dynamic layout (a call result) while the
// init is a new, identity-layout buffer: the iter_arg gets the fully dynamic
// layout, and so does everything computed from it in the body.
func.func private @new_or_same(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
func.func @layout_promoted(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %f) -> (tensor<4xf32>) {
    %u = scf.if %c -> (tensor<4xf32>) {
      %s = linalg.add ins(%t, %x : tensor<4xf32>, tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
      %k = tensor.cast %s : tensor<4xf32> to tensor<?xf32>
      %k2 = tensor.cast %k : tensor<?xf32> to tensor<4xf32>
      scf.yield %k2 : tensor<4xf32>
    } else {
      %v = func.call @new_or_same(%t, %c) : (tensor<4xf32>, i1) -> tensor<4xf32>
      scf.yield %v : tensor<4xf32>
    }
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @layout_promoted
// CHECK:         %1 = "memref.cast"(%0) : (memref<4xf32>) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %1) -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %3 = scf.if %c -> (memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:        linalg.add ins(%t, %x : {{.*}}) outs(%t : memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:        %4 = "memref.cast"(%t) : (memref<4xf32, strided<[?], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT:        %5 = "memref.cast"(%4) {rtcheck.origin = "tensor.cast"} : (memref<?xf32, strided<[?], offset: ?>>) -> memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:        scf.yield %5
// CHECK-NOT:     memref.copy
// CHECK:         func.return %2
