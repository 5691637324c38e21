// Loops: an insertion into an scf.for iter_arg, an scf.for whose result is
// inserted (its init is on the chain), and scf.forall's
// tensor.parallel_insert_slice into a shared output.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

// Each iteration computes a tile into an empty and inserts it into the
// accumulated tensor: the tile is computed into the accumulator's slice.
// CHECK-LABEL: func.func @tiles
func.func @tiles(%x: tensor<16xf32>, %init: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %init) -> (tensor<16xf32>) {
    %tile = tensor.empty() : tensor<4xf32>
    %in = tensor.extract_slice %x[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
    %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%in : tensor<4xf32>) outs(%tile : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    } -> tensor<4xf32>
    %next = tensor.insert_slice %sq into %acc[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
// CHECK:      scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %init) -> (tensor<16xf32>) {
// CHECK-NEXT:   %[[S:.*]] = tensor.extract_slice %acc[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:   %in = tensor.extract_slice %x[%i] [4] [1]
// CHECK-NEXT:   %sq = linalg.generic {{.*}} ins(%in : tensor<4xf32>) outs(%[[S]] : tensor<4xf32>)
// CHECK:        %next = tensor.insert_slice %sq into %acc[%i] [4] [1]
// CHECK-NOT:  tensor.empty

// The loop fills an empty element by element; its result is inserted: the
// loop starts from the destination's slice.
// CHECK-LABEL: func.func @loop_result
func.func @loop_result(%x: tensor<4xf32>, %dest: tensor<12xf32>) -> tensor<12xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %e) -> (tensor<4xf32>) {
    %v = tensor.extract %x[%i] : tensor<4xf32>
    %d = arith.addf %v, %v : f32
    %next = tensor.insert %d into %acc[%i] : tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  %q = tensor.insert_slice %r into %dest[8] [4] [1] : tensor<4xf32> into tensor<12xf32>
  return %q : tensor<12xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[8] [4] [1] : tensor<12xf32> to tensor<4xf32>
// CHECK-NEXT: %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %[[S]]) -> (tensor<4xf32>) {
// CHECK:      %q = tensor.insert_slice %r into %dest[8] [4] [1]

// scf.forall: each thread's row is computed into its slice of the shared
// output (the insertion rank-reduces).
// CHECK-LABEL: func.func @rows
func.func @rows(%x: tensor<4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4x8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %row = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%row : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %neg into %o[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
    }
  }
  return %r : tensor<4x8xf32>
}
// CHECK:      scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4x8xf32>) {
// CHECK-NEXT:   %[[S:.*]] = tensor.extract_slice %o[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
// CHECK-NEXT:   %row = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1]
// CHECK-NEXT:   %neg = linalg.generic {{.*}} outs(%[[S]] : tensor<8xf32>)
// CHECK:        tensor.parallel_insert_slice %neg into %o[%i, 0] [1, 8] [1, 1]
// CHECK-NOT:  tensor.empty

// The forall's result, from an empty shared output, is inserted: the forall
// writes into the destination's slice.
// CHECK-LABEL: func.func @forall_result
func.func @forall_result(%x: tensor<4x8xf32>, %dest: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<4x8xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %row into %o[%i, 0] [1, 8] [1, 1] : tensor<1x8xf32> into tensor<4x8xf32>
    }
  }
  %q = tensor.insert_slice %r into %dest[1, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
  return %q : tensor<6x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[1, 0] [4, 8] [1, 1] : tensor<6x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %r = scf.forall (%i) in (4) shared_outs(%o = %[[S]]) -> (tensor<4x8xf32>) {
