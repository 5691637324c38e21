// What no copy can make correct is refused, in mlir-opt-22's words, at the
// op (the module is left unchanged). materialize_in_destination must write
// its destination's own buffer: refused when a later read still needs the
// destination's old value (RaW), or when that buffer may not be written.
// A used to_tensor without `restrict` may alias any tensor: refused. A loop
// whose body cannot update its iter_arg in place is refused unless
// allow-return-allocs-from-loops. (Cases a copy fixes: conflicts.mlir.)
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p 'one-shot-bufferize' | filecheck %s --check-prefix=TENSORS
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s

func.func @materialize_dest_read_after(%s: tensor<4xf32>, %d: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %d[%c0] : tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}
// CHECK: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: cannot avoid RaW conflict
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: cannot avoid RaW conflict

// -----

// An argument is writable only when function boundaries are bufferized.
func.func @materialize_into_argument(%s: tensor<4xf32>, %d: tensor<4xf32>) -> tensor<4xf32> {
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer
// CHECK-LABEL: func.func @materialize_into_argument(
// CHECK-NEXT:    "memref.copy"(%s, %d)
// CHECK-NEXT:    func.return %d

// -----

func.func @materialize_into_non_writable_argument(%s: tensor<4xf32>, %d: tensor<4xf32> {bufferization.writable = false}) -> tensor<4xf32> {
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer

// -----

func.func @materialize_into_constant(%s: tensor<4xf32>) -> tensor<4xf32> {
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer

// -----

func.func @materialize_into_to_tensor(%s: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %d = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer

// -----

func.func @to_tensor_without_restrict(%s: tensor<2xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %r = tensor.insert_slice %s into %t[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK: one-shot-bufferize: 'bufferization.to_tensor': to_tensor ops without `restrict` are not supported by One-Shot Analysis
// TENSORS: one-shot-bufferize: 'bufferization.to_tensor': to_tensor ops without `restrict` are not supported by One-Shot Analysis

// -----

// The destination is read in a loop that runs before the write: no
// conflict. It stays an argument's buffer, writable only at boundaries.
func.func @materialize_dest_read_in_loop_before(%s: tensor<4xf32>, %d: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = tensor.extract %d[%i] : tensor<4xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  %r = bufferization.materialize_in_destination %s in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r, %sum : tensor<4xf32>, f32
}
// TENSORS: one-shot-bufferize: 'bufferization.materialize_in_destination': not bufferizable under the given constraints: would write to read-only buffer
// CHECK-LABEL: func.func @materialize_dest_read_in_loop_before(
// CHECK:         scf.for
// CHECK:         "memref.copy"(%s, %d)

// -----

// The destination is a view of %d, another part of which is read after.
func.func @materialize_dest_read_after_through_slice(%s: tensor<4xf32>, %d: tensor<8xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
  %v = tensor.extract_slice %d[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r = bufferization.materialize_in_destination %s in %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %w = tensor.extract_slice %d[2] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %r, %w : tensor<4xf32>, tensor<2xf32>
}
// CHECK: one-shot-bufferize: 'tensor.extract_slice': not bufferizable under the given constraints: cannot avoid RaW conflict
// TENSORS: one-shot-bufferize: 'tensor.extract_slice': not bufferizable under the given constraints: cannot avoid RaW conflict

// -----

// Each iteration reads the old value of the element it overwrote: the
// body cannot update the iter_arg in place (upstream: "Yield operand #0 is
// not equivalent to the corresponding iter bbArg").
func.func @for_body_reads_old_value(%t: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.copy ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<4xf32>) {
    %j = arith.addi %i, %c1 : index
    %x = tensor.extract %acc[%j] : tensor<4xf32>
    %n = tensor.insert %x into %acc[%i] : tensor<4xf32>
    %y = tensor.extract %acc[%i] : tensor<4xf32>
    %m = tensor.insert %y into %n[%j] : tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK: one-shot-bufferize: 'scf.for': yield operand #0 is not equivalent to the corresponding iter_arg
// TENSORS: one-shot-bufferize: 'scf.for': yield operand #0 is not equivalent to the corresponding iter_arg
