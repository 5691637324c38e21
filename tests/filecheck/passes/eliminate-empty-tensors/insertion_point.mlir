// Where the slice goes: before the empty when everything it needs is
// defined there; else right after the last of those definitions; else those
// definitions (pure ops) move up before the chain's first op. When one
// cannot move, the insertion is left alone, and `report` says why.
// RUN: xdsl-opt %s -p "eliminate-empty-tensors{report=true}" 2>&1 | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK:      eliminate-empty-tensors: @effectful_offset: tensor.insert_slice of %sq keeps its tensor.empty: the destination, offsets, sizes or strides are defined after the empty's use by linalg.generic and cannot move before it: memref.load may have side effects
// CHECK-NEXT: eliminate-empty-tensors: @offset_from_result: tensor.insert_slice of %sq keeps its tensor.empty: the destination, offsets, sizes or strides are defined after the empty's use by linalg.generic and cannot move before it: they depend on the result of linalg.generic

// The offset is computed after the empty but before the generic.
// CHECK-LABEL: func.func @offset_after_empty
func.func @offset_after_empty(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>, %i: index) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c2 = arith.constant 2 : index
  %o = arith.addi %i, %c2 : index
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %o = arith.addi %i, %c2 : index
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %dest[%o, 0] [4, 8] [1, 1]
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[S]] : tensor<4x8xf32>)

// The offset and the destination are computed after the generic: their pure
// definitions move before it.
// CHECK-LABEL: func.func @defined_after_generic
func.func @defined_after_generic(%x: tensor<4x8xf32>, %base: tensor<10x8xf32>, %i: index, %v: f32) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %c1 = arith.constant 1 : index
  %o = arith.addi %i, %c1 : index
  %dest = linalg.fill ins(%v : f32) outs(%base : tensor<10x8xf32>) -> tensor<10x8xf32>
  %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %c1 = arith.constant 1 : index
// CHECK-NEXT: %o = arith.addi %i, %c1 : index
// CHECK-NEXT: %dest = linalg.fill ins(%v : f32) outs(%base : tensor<10x8xf32>)
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %dest[%o, 0] [4, 8] [1, 1]
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[S]] : tensor<4x8xf32>)
// CHECK:      %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1]

// The offset is loaded from memory after the generic: a load does not move.
// CHECK-LABEL: func.func @effectful_offset
func.func @effectful_offset(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>, %m: memref<index>) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %o = memref.load %m[] : memref<index>
  %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK:      %e = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%e : tensor<4x8xf32>)
// CHECK:      %o = memref.load %m[] : memref<index>
// CHECK-NEXT: %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1]

// The offset depends on the generic's result: it cannot come first.
// CHECK-LABEL: func.func @offset_from_result
func.func @offset_from_result(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<4x8xf32>
  %c0 = arith.constant 0 : index
  %first = tensor.extract %sq[%c0, %c0] : tensor<4x8xf32>
  %pos = arith.cmpf ogt, %first, %first : f32
  %c3 = arith.constant 3 : index
  %o = arith.select %pos, %c3, %c0 : index
  %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK:      %e = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%e : tensor<4x8xf32>)
// CHECK:      %r = tensor.insert_slice %sq into %dest[%o, 0] [4, 8] [1, 1]

// The destination is a block argument of a loop that the empty is outside
// of: the slice goes inside the loop, before the generic, which is inside
// too.
// CHECK-LABEL: func.func @dest_in_loop
func.func @dest_in_loop(%x: tensor<4xf32>, %dest: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %dest) -> (tensor<16xf32>) {
    %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<4xf32>
    %next = tensor.insert_slice %neg into %acc[%i] [4] [1] : tensor<4xf32> into tensor<16xf32>
    scf.yield %next : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      scf.for %i = %c0 to %c16 step %c4 iter_args(%acc = %dest) -> (tensor<16xf32>) {
// CHECK-NEXT:   %[[S:.*]] = tensor.extract_slice %acc[%i] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:   %neg = linalg.generic {{.*}} outs(%[[S]] : tensor<4xf32>)
