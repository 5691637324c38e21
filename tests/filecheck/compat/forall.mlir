// Round trip of scf.forall with its in_parallel terminator and
// tensor.parallel_insert_slice: the normalized `in (ubs)` form and the
// `= (lbs) to (ubs) step (steps)` form, static and dynamic bounds, several
// shared outputs, a mapping, and a loop without outputs (whose empty
// terminator is implicit), printed as mlir-opt-22 prints them.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @normalized
func.func @normalized(%t: tensor<8x4xf32>, %init: tensor<8x4xf32>, %n: index) -> tensor<8x4xf32> {
  %r = scf.forall (%i, %j) in (%n, 4) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    %s = tensor.extract_slice %t[%i, %j] [1, 1] [1, 1] : tensor<8x4xf32> to tensor<1x1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, %j] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<8x4xf32>
    }
  }
  return %r : tensor<8x4xf32>
}
// CHECK-NEXT: %r = scf.forall (%i, %j) in (%n, 4) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
// CHECK-NEXT:   %s = tensor.extract_slice %t[%i, %j] [1, 1] [1, 1] : tensor<8x4xf32> to tensor<1x1xf32>
// CHECK-NEXT:   scf.forall.in_parallel {
// CHECK-NEXT:     tensor.parallel_insert_slice %s into %o[%i, %j] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<8x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: func.return %r : tensor<8x4xf32>
// GENERIC:      %r = "scf.forall"(%n, %init) <{staticLowerBound = array<i64: 0, 0>, staticUpperBound = array<i64: -9223372036854775808, 4>, staticStep = array<i64: 1, 1>, operandSegmentSizes = array<i32: 0, 1, 0, 1>}> ({
// GENERIC-NEXT: ^bb0(%i: index, %j: index, %o: tensor<8x4xf32>):
// GENERIC:        "scf.forall.in_parallel"() ({
// GENERIC-NEXT:     "tensor.parallel_insert_slice"(%s, %o, %i, %j) <{static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: 1, 1>, static_strides = array<i64: 1, 1>, operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}> : (tensor<1x1xf32>, tensor<8x4xf32>, index, index) -> ()
// GENERIC-NEXT:   }) : () -> ()
// GENERIC-NEXT: }) : (index, tensor<8x4xf32>) -> tensor<8x4xf32>

// CHECK-LABEL: func.func @bounds_and_mapping
func.func @bounds_and_mapping(%t: tensor<8x4xf32>, %init: tensor<8x4xf32>, %lb: index, %n: index, %step: index) -> tensor<8x4xf32> {
  %r = scf.forall (%i) = (%lb) to (%n) step (%step) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    %s = tensor.extract_slice %t[%i, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i, 0] [2, 4] [1, 1] {tag} : tensor<2x4xf32> into tensor<8x4xf32>
    }
  } {mapping = [#gpu.thread<x>]}
  return %r : tensor<8x4xf32>
}
// CHECK-NEXT: %r = scf.forall (%i) = (%lb) to (%n) step (%step) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
// CHECK-NEXT:   %s = tensor.extract_slice %t[%i, 0] [2, 4] [1, 1] : tensor<8x4xf32> to tensor<2x4xf32>
// CHECK-NEXT:   scf.forall.in_parallel {
// CHECK-NEXT:     tensor.parallel_insert_slice %s into %o[%i, 0] [2, 4] [1, 1] {tag} : tensor<2x4xf32> into tensor<8x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: } {mapping = [#gpu.thread<x>]}

// CHECK-LABEL: func.func @several_outputs
func.func @several_outputs(%a: tensor<8xf32>, %b: tensor<8xi32>, %x: tensor<2xf32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = scf.forall (%i) = (0) to (8) step (2) shared_outs(%o = %a, %p = %b) -> (tensor<8xf32>, tensor<8xi32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  } {mapping = [#gpu.block<linear_dim_0>], tag = "tiled"}
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
// CHECK-NEXT: %r, %r_1 = scf.forall (%i) = (0) to (8) step (2) shared_outs(%o = %a, %p = %b) -> (tensor<8xf32>, tensor<8xi32>) {
// CHECK-NEXT:   scf.forall.in_parallel {
// CHECK-NEXT:     tensor.parallel_insert_slice %x into %o[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: } {mapping = [#gpu.block<linear_dim_0>], tag = "tiled"}

// The (empty) terminator may be left implicit; it is printed only when there
// are shared outputs, even when empty.
// CHECK-LABEL: func.func @implicit_terminator
func.func @implicit_terminator(%n: index, %init: tensor<4xf32>) -> tensor<4xf32> {
  scf.forall (%i, %j) in (2, 3) {
    %k = arith.addi %i, %j : index
  }
  scf.forall (%i) = (0) to (%n) step (1) {
  }
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  %q = scf.forall (%w) in (2) shared_outs(%p = %r) -> (tensor<4xf32>) {
  }
  return %q : tensor<4xf32>
}
// CHECK-NEXT: scf.forall (%i, %j) in (2, 3) {
// CHECK-NEXT:   %k = arith.addi %i, %j : index
// CHECK-NEXT: }
// CHECK-NEXT: scf.forall (%i_1) in (%n) {
// CHECK-NEXT: }
// CHECK-NEXT: %r = scf.forall (%i_2) in (4) shared_outs(%o = %init) -> (tensor<4xf32>) {
// CHECK-NEXT:   scf.forall.in_parallel {
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: %q = scf.forall (%w) in (2) shared_outs(%p = %r) -> (tensor<4xf32>) {
// CHECK-NEXT:   scf.forall.in_parallel {
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC-LABEL: sym_name = "implicit_terminator"
// GENERIC:        "scf.forall.in_parallel"() ({
// GENERIC-NEXT:   ^bb0:
// GENERIC-NEXT:   }) : () -> ()

// MLIR prints the `in` form whenever the lower bounds are the constant 0 and
// the steps the constant 1, even as values of arith.constant ops.
// CHECK-LABEL: func.func @constant_bounds
func.func @constant_bounds(%n: index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.forall (%i) = (%zero) to (%n) step (%one) {
  }
  scf.forall (%i) = (%one) to (%n) step (%one) {
  }
  return
}
// CHECK:      scf.forall (%i) in (%n) {
// CHECK-NEXT: }
// CHECK-NEXT: scf.forall (%i_1) = (%one) to (%n) step (%one) {
// CHECK-NEXT: }
