// scf.forall with shared_outs: each shared output is the buffer of its block
// argument and of its result, and the loop counts as reading and writing
// it. The bufferized loop has no results: its body writes the outputs'
// buffers directly, each tensor.parallel_insert_slice becoming a subview
// and a copy before the (now empty) terminator, or nothing when the tile was
// computed in place in that very subview.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// Each iteration computes its tile in place in %out: no allocation, no copy
// (upstream keeps a copy of the tile onto itself).
func.func @tiles(%x: tensor<8x16xf32>, %out: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c2 = arith.constant 2 : index
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<8x16xf32>) {
    %off = arith.muli %i, %c2 : index
    %a = tensor.extract_slice %x[%off, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %t = tensor.extract_slice %o[%off, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %e = linalg.exp ins(%a : tensor<2x16xf32>) outs(%t : tensor<2x16xf32>) -> tensor<2x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @tiles
// CHECK-NOT:     memref.alloc
// CHECK:         scf.forall (%i) in (4) {
// CHECK-NEXT:      %off = arith.muli %i, %c2 : index
// CHECK-NEXT:      %0 = memref.subview %x[%off, 0] [2, 16] [1, 1]
// CHECK-NEXT:      %1 = memref.subview %out[%off, 0] [2, 16] [1, 1]
// CHECK-NEXT:      linalg.exp ins(%0 : {{.*}}) outs(%1 : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %out
// ANALYSIS-LABEL: func.func @tiles
// ANALYSIS-SAME:    %out: tensor<8x16xf32> {bufferization.access = "read-write"}
// ANALYSIS:         linalg.exp {{.*}}__inplace_operands_attr__ = ["true", "true"]
// ANALYSIS:         tensor.parallel_insert_slice {{.*}}__inplace_operands_attr__ = ["true", "true", "none"]
// ANALYSIS:         } {__inplace_operands_attr__ = ["true"]}
// ANALYSIS:         func.return {__inplace_operands_attr__ = ["true"], __equivalent_func_args__ = [1 : i64]}

// Tiles computed into their own buffers are copied into the shared output,
// a new buffer (its init is a tensor.empty).
func.func @into_empty(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c2 = arith.constant 2 : index
  %init = tensor.empty() : tensor<8x16xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<8x16xf32>) {
    %off = arith.muli %i, %c2 : index
    %a = tensor.extract_slice %x[%off, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %t = tensor.empty() : tensor<2x16xf32>
    %e = linalg.exp ins(%a : tensor<2x16xf32>) outs(%t : tensor<2x16xf32>) -> tensor<2x16xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @into_empty
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
// CHECK-NEXT:    scf.forall (%i) in (4) {
// CHECK-NEXT:      %off = arith.muli %i, %c2 : index
// CHECK-NEXT:      %1 = memref.subview %x[%off, 0] [2, 16] [1, 1]
// CHECK-NEXT:      %2 = memref.alloc() {alignment = 64 : i64} : memref<2x16xf32>
// CHECK-NEXT:      linalg.exp ins(%1 : {{.*}}) outs(%2 : memref<2x16xf32>)
// CHECK-NEXT:      %3 = memref.subview %0[%off, 0] [2, 16] [1, 1] {rtcheck.origin = "tensor.parallel_insert_slice"} : memref<8x16xf32> to memref<2x16xf32, strided<[16, 1], offset: ?>>
// CHECK-NEXT:      "memref.copy"(%2, %3)
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %0 : memref<8x16xf32>

// %x is read after the loop: the loop writes a copy of it.
func.func @out_read_after(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %x) -> (tensor<8xf32>) {
    %t = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
    %e = linalg.exp ins(%t : tensor<1xf32>) outs(%t : tensor<1xf32>) -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
    }
  }
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.sub ins(%r, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %d : tensor<8xf32>
}
// CHECK-LABEL: func.func @out_read_after
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%x, %0)
// CHECK-NEXT:    scf.forall (%i) in (8) {
// CHECK-NEXT:      %1 = memref.subview %0[%i] [1] [1]
// CHECK-NEXT:      linalg.exp ins(%1 : {{.*}}) outs(%1 : {{.*}})
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = memref.alloc()
// CHECK-NEXT:    linalg.sub ins(%0, %x : {{.*}}) outs(%2 : memref<8xf32>)
// ANALYSIS-LABEL: func.func @out_read_after
// ANALYSIS:         } {__inplace_operands_attr__ = ["false"]}

// Two dimensions and two shared outputs, one of them read by the body.
func.func @two_outputs(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %e0 = tensor.empty() : tensor<8x16xf32>
  %r:2 = scf.forall (%i, %j) in (4, 4) shared_outs(%o = %e0, %p = %y) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
    %oi = arith.muli %i, %c2 : index
    %oj = arith.muli %j, %c4 : index
    %a = tensor.extract_slice %x[%oi, %oj] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
    %t = tensor.extract_slice %o[%oi, %oj] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
    %e = linalg.exp ins(%a : tensor<2x4xf32>) outs(%t : tensor<2x4xf32>) -> tensor<2x4xf32>
    %u = tensor.extract_slice %p[%oi, %oj] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
    %s = linalg.add ins(%e, %u : tensor<2x4xf32>, tensor<2x4xf32>) outs(%u : tensor<2x4xf32>) -> tensor<2x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%oi, %oj] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
      tensor.parallel_insert_slice %s into %p[%oi, %oj] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
    }
  }
  return %r#0, %r#1 : tensor<8x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @two_outputs
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         scf.forall (%i, %j) in (4, 4) {
// CHECK:           linalg.exp
// CHECK:           linalg.add
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %0, %y
// ANALYSIS-LABEL: func.func @two_outputs
// ANALYSIS:         } {__inplace_operands_attr__ = ["true", "true"]}

// Dynamic sizes and a dynamic bound.
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.forall (%i) in (%n) shared_outs(%o = %e) -> (tensor<?xf32>) {
    %a = tensor.extract_slice %x[%i] [1] [1] : tensor<?xf32> to tensor<1xf32>
    %t = tensor.extract_slice %o[%i] [1] [1] : tensor<?xf32> to tensor<1xf32>
    %s = linalg.exp ins(%a : tensor<1xf32>) outs(%t : tensor<1xf32>) -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}
// CHECK-LABEL: func.func @dynamic
// CHECK:         %0 = memref.alloc(%n) {alignment = 64 : i64, rtcheck.origin = "tensor.empty"} : memref<?xf32>
// CHECK-NEXT:    scf.forall (%i) in (%n) {
// CHECK-NOT:       memref.copy
// CHECK:         {{^ *}}}{{$}}
// CHECK-NEXT:    func.return %0 : memref<?xf32>

// The parallel insertions of one terminator happen together: an insertion
// reading another slice of the output it writes is not a conflict (as in
// MLIR, where the terminator's region is a graph region). The slice read
// is copied, as it is not the slice written.
func.func @reversed_slices(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c7 = arith.constant 7 : index
  %r = scf.forall (%i) in (8) shared_outs(%o = %x) -> (tensor<8xf32>) {
    %j = arith.subi %c7, %i : index
    %t = tensor.extract_slice %o[%j] [1] [1] : tensor<8xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @reversed_slices
// CHECK-NOT:     memref.alloc
// CHECK:         scf.forall (%i) in (8) {
// CHECK-NEXT:      %j = arith.subi %c7, %i : index
// CHECK-NEXT:      %0 = memref.subview %x[%j] [1] [1]
// CHECK-NEXT:      %1 = memref.subview %x[%i] [1] [1]
// CHECK-NEXT:      "memref.copy"(%0, %1)
// CHECK-NEXT:    }
// ANALYSIS-LABEL: func.func @reversed_slices
// ANALYSIS:         tensor.extract_slice {{.*}}__inplace_operands_attr__ = ["true", "none"]
// ANALYSIS:         tensor.parallel_insert_slice {{.*}}__inplace_operands_attr__ = ["true", "true", "none"]

// A forall in a loop, on the loop's iter_arg.
func.func @in_loop(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %f = scf.forall (%i) in (8) shared_outs(%o = %acc) -> (tensor<8xf32>) {
      %t = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
      %s = linalg.add ins(%t, %t : tensor<1xf32>, tensor<1xf32>) outs(%t : tensor<1xf32>) -> tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
      }
    }
    scf.yield %f : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @in_loop
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %x)
// CHECK-NEXT:      scf.forall (%i) in (8) {
// CHECK-NEXT:        %1 = memref.subview %acc[%i] [1] [1]
// CHECK-NEXT:        linalg.add
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %acc
// ANALYSIS-LABEL: func.func @in_loop
// ANALYSIS:         func.return {__inplace_operands_attr__ = ["true"], __equivalent_func_args__ = [0 : i64]}
