// Writes that would clobber a value read later (read-after-write), or
// write a buffer that must not be written (a function argument when
// function boundaries are not bufferized, a constant, a `to_tensor` that is
// not `writable`), go to a copy: a new buffer, with the old contents when
// the op reads them. Same decisions as mlir-opt-22's one-shot-bufferize
// with the same options. What no copy can fix is refused:
// conflict_refusals.mlir.
// RUN: xdsl-opt %s -p 'one-shot-bufferize' | filecheck %s --check-prefix=TENSORS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s

// The destination is read after the insertion: the insertion writes a copy.
func.func @insert_slice_dest_read_after(%s: tensor<2xf32>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = tensor.insert_slice %s into %t[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.exp ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %u : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @insert_slice_dest_read_after(
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%t, %[[COPY]])
// CHECK-NEXT:    %[[SUB:.*]] = memref.subview %[[COPY]][1] [2] [1]
// CHECK-NEXT:    "memref.copy"(%s, %[[SUB]])
// CHECK:         linalg.exp ins(%t : {{.*}})
// TENSORS-LABEL: func.func @insert_slice_dest_read_after(
// TENSORS:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// TENSORS-NEXT:    "memref.copy"(%{{.*}}, %[[COPY]])
// TENSORS:         memref.subview %[[COPY]][1] [2] [1]

// An argument's buffer is written only when function boundaries are
// bufferized (arguments are writable then); otherwise the insertion copies.
func.func @insert_slice_into_argument(%s: tensor<2xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = tensor.insert_slice %s into %t[2] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @insert_slice_into_argument(
// CHECK-NOT:     memref.alloc
// CHECK:         memref.subview %t[2] [2] [1]
// TENSORS-LABEL: func.func @insert_slice_into_argument(
// TENSORS-NEXT:    %[[ARG:.*]] = bufferization.to_buffer %t
// TENSORS-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// TENSORS-NEXT:    "memref.copy"(%[[ARG]], %[[COPY]])
// TENSORS:         memref.subview %[[COPY]][2] [2] [1]
// TENSORS:         %r = bufferization.to_tensor %[[COPY]] restrict

// A constant's global is never written.
func.func @insert_slice_into_constant(%s: tensor<2xf32>) -> tensor<4xf32> {
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = tensor.insert_slice %s into %t[0] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @insert_slice_into_constant(
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @__constant_4xf32
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[COPY]])
// CHECK-NEXT:    memref.subview %[[COPY]][0] [2] [1]

// A `to_tensor` that is not `writable`: its buffer is read, never written.
func.func @insert_slice_into_to_tensor(%s: tensor<2xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %r = tensor.insert_slice %s into %t[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @insert_slice_into_to_tensor(
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%m, %[[COPY]])
// CHECK-NEXT:    memref.subview %[[COPY]][1] [2] [1]

// The fill does not read its output: a new buffer, no copy.
func.func @fill_output_read_after(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.add ins(%t, %r : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %u : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @fill_output_read_after(
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[NEW]] : memref<4xf32>)
// CHECK:         linalg.add ins(%t, %[[NEW]] : {{.*}})

// The generic reads its output: a copy when the argument may not be written.
func.func @generic_into_argument(%a: tensor<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @generic_into_argument(
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a : {{.*}}) outs(%t : {{.*}})
// TENSORS-LABEL: func.func @generic_into_argument(
// TENSORS-NEXT:    %[[ARG:.*]] = bufferization.to_buffer %t
// TENSORS-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// TENSORS-NEXT:    "memref.copy"(%[[ARG]], %[[COPY]])
// TENSORS:         linalg.generic {{.*}} outs(%[[COPY]] : memref<4xf32>)

func.func @generic_into_constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.mulf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @generic_into_constant(
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @__constant_4xf32
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[COPY]])
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[COPY]] : memref<4xf32>)

func.func @fill_into_to_tensor(%m: memref<4xf32>, %v: f32) -> tensor<4xf32> {
  %t = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @fill_into_to_tensor(
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[NEW]] : memref<4xf32>)

// The loop writes its iter_arg, whose init is read after the loop: the
// loop starts from a copy.
func.func @for_init_read_after(%t: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %n = tensor.insert %v into %acc[%i] : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.exp ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %u : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @for_init_read_after(
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%t, %[[COPY]])
// CHECK-NEXT:    scf.for {{.*}} iter_args(%acc = %[[COPY]])
// CHECK:         linalg.exp ins(%t : {{.*}})

func.func @for_init_argument(%t: tensor<4xf32>, %s: tensor<2xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %n = tensor.insert_slice %s into %acc[%i] [2] [1] : tensor<2xf32> into tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @for_init_argument(
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for {{.*}} iter_args(%acc = %t)
// TENSORS-LABEL: func.func @for_init_argument(
// TENSORS:         %[[ARG:.*]] = bufferization.to_buffer %t
// TENSORS-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// TENSORS-NEXT:    "memref.copy"(%[[ARG]], %[[COPY]])
// TENSORS:         scf.for {{.*}} iter_args(%acc = %[[COPY]])

func.func @for_init_constant(%v: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %x = tensor.extract %acc[%i] : tensor<4xf32>
    %y = arith.addf %x, %v : f32
    %n = tensor.insert %y into %acc[%i] : tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @for_init_constant(
// CHECK:         %[[G:.*]] = memref.get_global @__constant_4xf32
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[COPY]])
// CHECK-NEXT:    scf.for {{.*}} iter_args(%acc = %[[COPY]])

// The if yields an argument or a constant: either may be read-only, so the
// generic that reads and writes the result works on a copy.
func.func @if_yields_read_only(%c: i1, %a: tensor<4xf32>) -> tensor<4xf32> {
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %k : tensor<4xf32>
  }
  %f = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  return %f : tensor<4xf32>
}
// CHECK-LABEL: func.func @if_yields_read_only(
// CHECK:         %[[IF:.*]] = scf.if %c
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[IF]], %[[COPY]])
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[COPY]] : memref<4xf32>)

// Either argument is read after the write through the if's result.
func.func @if_result_read_after_write(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = scf.if %c -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %f = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%r : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %o : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %f, %u : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @if_result_read_after_write(
// CHECK:         %[[IF:.*]] = scf.if %c
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%[[IF]], %[[COPY]])
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[COPY]] : memref<4xf32>)
// CHECK:         linalg.add ins(%a, %b : {{.*}})

// A branch writes the argument that is read after the if: that branch
// writes a new buffer.
func.func @if_branch_writes_read_after(%c: i1, %a: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = scf.if %c -> (tensor<4xf32>) {
    %f = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %e = tensor.empty() : tensor<4xf32>
  %u = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r, %u : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @if_branch_writes_read_after(
// CHECK-NEXT:    scf.if %c
// CHECK-NEXT:      %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:      linalg.fill ins(%v : f32) outs(%[[NEW]] : memref<4xf32>)

// materialize_in_destination writes its destination in place: fine when
// nothing reads the destination's old value afterwards.
func.func @materialize_into_empty(%s: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = bufferization.materialize_in_destination %s in %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @materialize_into_empty(
// CHECK-NEXT:    %[[NEW:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         "memref.copy"(%{{.*}}, %[[NEW]])
// CHECK-NEXT:    func.return %[[NEW]]

// The old destination is read before the materialization: no conflict.
func.func @materialize_dest_read_before(%s: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, f32) {
  %c1 = arith.constant 1 : index
  %d = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %x = tensor.extract %d[%c1] : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.exp ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = bufferization.materialize_in_destination %g in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r, %x : tensor<4xf32>, f32
}
// CHECK-LABEL: func.func @materialize_dest_read_before(
// CHECK:         %[[D:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[D]] : memref<4xf32>)
// CHECK-NEXT:    %x = memref.load %[[D]]
// CHECK:         "memref.copy"(%{{.*}}, %[[D]])
// CHECK-NEXT:    func.return %[[D]], %x
