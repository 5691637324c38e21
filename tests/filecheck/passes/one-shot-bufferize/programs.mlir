// Whole programs through one-shot-bufferize, each pinned by its allocations
// and copies (CHECK) and by the in-place decisions (ANALYSIS): a pad fused
// by `fuse-pad` (plain and `fill=border`), a pad written out as
// fill + insert_slice before and after `eliminate-empty-tensors`, chains of
// three elementwise generics, arguments updated in place, and conflicts (a
// value read after a write, a call's argument read after the call, a
// read-only argument). The unfused pad is in programs_pad.mlir, the tiled
// loops in programs_loop.mlir.
// tests/unit/test_one_shot_bufferize_upstream.py checks that upstream's
// --one-shot-bufferize makes the same decisions and no fewer allocations or
// copies on these.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

#id = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>

// `xdsl-opt -p fuse-pad` of @pad_unfused (programs_pad.mlir), as it prints
// it (`fuse-pad,eliminate-empty-tensors` gives the same: nothing is left to
// eliminate). The producer computes into the interior of the filled tensor
// and the insertion writes it where it already is: one allocation, no copy
// (upstream copies the interior onto itself).
func.func @pad_fused(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %p = tensor.empty() : tensor<6x9xf32>
  %filled = linalg.fill ins(%v : f32) outs(%p : tensor<6x9xf32>) -> tensor<6x9xf32>
  %interior = tensor.extract_slice %filled[1, 2] [4, 6] [1, 1] : tensor<6x9xf32> to tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%interior : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %padded = tensor.insert_slice %r into %filled[1, 2] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_fused(%x: memref<4x6xf32, strided<[?, ?], offset: ?>>, %v: f32) -> memref<6x9xf32>
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<6x9xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 2] [4, 6] [1, 1] : memref<6x9xf32> to memref<4x6xf32, strided<[9, 1], offset: 11>>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%x : memref<4x6xf32, strided<[?, ?], offset: ?>>) outs(%[[I]] : memref<4x6xf32, strided<[9, 1], offset: 11>>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[P]] : memref<6x9xf32>
// ANALYSIS-LABEL: func.func @pad_fused(%x: tensor<4x6xf32> {bufferization.access = "read"}, %v: f32)
// ANALYSIS:       linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
// ANALYSIS-NEXT:  tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true"]}
// ANALYSIS-NEXT:  linalg.generic {{.*}} attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS-NEXT:  func.return {__inplace_operands_attr__ = ["true"]}

// `xdsl-opt -p 'fuse-pad{fill=border},eliminate-empty-tensors'` of
// @pad_unfused: the border filled slab by slab, each slab in place in the
// one allocation.
func.func @pad_fused_border(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %p = tensor.empty() : tensor<6x9xf32>
  %top = tensor.extract_slice %p[0, 0] [1, 9] [1, 1] : tensor<6x9xf32> to tensor<1x9xf32>
  %top_f = linalg.fill ins(%v : f32) outs(%top : tensor<1x9xf32>) -> tensor<1x9xf32>
  %p1 = tensor.insert_slice %top_f into %p[0, 0] [1, 9] [1, 1] : tensor<1x9xf32> into tensor<6x9xf32>
  %bottom = tensor.extract_slice %p1[5, 0] [1, 9] [1, 1] : tensor<6x9xf32> to tensor<1x9xf32>
  %bottom_f = linalg.fill ins(%v : f32) outs(%bottom : tensor<1x9xf32>) -> tensor<1x9xf32>
  %p2 = tensor.insert_slice %bottom_f into %p1[5, 0] [1, 9] [1, 1] : tensor<1x9xf32> into tensor<6x9xf32>
  %left = tensor.extract_slice %p2[1, 0] [4, 2] [1, 1] : tensor<6x9xf32> to tensor<4x2xf32>
  %left_f = linalg.fill ins(%v : f32) outs(%left : tensor<4x2xf32>) -> tensor<4x2xf32>
  %p3 = tensor.insert_slice %left_f into %p2[1, 0] [4, 2] [1, 1] : tensor<4x2xf32> into tensor<6x9xf32>
  %right = tensor.extract_slice %p3[1, 8] [4, 1] [1, 1] : tensor<6x9xf32> to tensor<4x1xf32>
  %right_f = linalg.fill ins(%v : f32) outs(%right : tensor<4x1xf32>) -> tensor<4x1xf32>
  %p4 = tensor.insert_slice %right_f into %p3[1, 8] [4, 1] [1, 1] : tensor<4x1xf32> into tensor<6x9xf32>
  %interior = tensor.extract_slice %p4[1, 2] [4, 6] [1, 1] : tensor<6x9xf32> to tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%interior : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %padded = tensor.insert_slice %r into %p4[1, 2] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_fused_border
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         linalg.fill ins(%v : f32) outs(%{{.*}} : memref<1x9xf32, strided<[9, 1]>>)
// CHECK:         linalg.fill ins(%v : f32) outs(%{{.*}} : memref<1x9xf32, strided<[9, 1], offset: 45>>)
// CHECK:         linalg.fill ins(%v : f32) outs(%{{.*}} : memref<4x2xf32, strided<[9, 1], offset: 9>>)
// CHECK:         linalg.fill ins(%v : f32) outs(%{{.*}} : memref<4x1xf32, strided<[9, 1], offset: 17>>)
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<4x6xf32, strided<[9, 1], offset: 11>>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[P]] : memref<6x9xf32>
// ANALYSIS-LABEL: func.func @pad_fused_border
// ANALYSIS-COUNT-5: tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true"]}
// ANALYSIS:       tensor.insert_slice %r into %p4[1, 2] [4, 6] [1, 1] {__inplace_operands_attr__ = ["true", "true"]}

// A pad written out by hand: the producer computes into a fresh tensor,
// which is then inserted into the filled one: two allocations and a copy.
func.func @pad_decomposed(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %outer = tensor.empty() : tensor<6x9xf32>
  %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<6x9xf32>) -> tensor<6x9xf32>
  %inner = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%inner : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %padded = tensor.insert_slice %r into %filled[1, 2] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_decomposed
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<6x9xf32>)
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[R]] : memref<4x6xf32>)
// CHECK:         %[[I:.*]] = memref.subview %[[P]][1, 2] [4, 6] [1, 1]
// CHECK-NEXT:    memref.copy{{.*}}%[[R]], %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<6x9xf32>

// `xdsl-opt -p eliminate-empty-tensors` of @pad_decomposed: the producer's
// init becomes the interior of the filled tensor, as fuse-pad builds it.
func.func @pad_decomposed_eliminated(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %outer = tensor.empty() : tensor<6x9xf32>
  %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<6x9xf32>) -> tensor<6x9xf32>
  %inner = tensor.extract_slice %filled[1, 2] [4, 6] [1, 1] : tensor<6x9xf32> to tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%inner : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %padded = tensor.insert_slice %r into %filled[1, 2] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_decomposed_eliminated
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[P]] : memref<6x9xf32>

// Three elementwise generics, each into its own tensor.empty: one
// allocation each, no copy.
func.func @chain_fresh_inits(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %e1 = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %e3 = tensor.empty() : tensor<16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b, %x : tensor<16xf32>, tensor<16xf32>) outs(%e3 : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.subf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  return %c : tensor<16xf32>
}
// CHECK-LABEL: func.func @chain_fresh_inits
// CHECK-COUNT-3: memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return
// ANALYSIS-LABEL: func.func @chain_fresh_inits
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}

// The same chain, each generic writing over the previous result it reads
// elementwise: all three in one allocation.
func.func @chain_shared_init(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%a : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b, %x : tensor<16xf32>, tensor<16xf32>) outs(%b : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.subf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<16xf32>
  return %c : tensor<16xf32>
}
// CHECK-LABEL: func.func @chain_shared_init
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[A]] : memref<16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : memref<16xf32>) outs(%[[A]] : memref<16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %x : {{.*}}) outs(%[[A]] : memref<16xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[A]] : memref<16xf32>
// ANALYSIS-LABEL: func.func @chain_shared_init
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}

// The same with dynamic sizes; the last generic writes into the first's
// init again, which holds the value it reads elementwise.
func.func @chain_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<?xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %p : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%b, %x : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %d = arith.subf %p, %q : f32
    linalg.yield %d : f32
  } -> tensor<?xf32>
  return %c : tensor<?xf32>
}
// CHECK-LABEL: func.func @chain_dynamic
// CHECK:         %[[A:.*]] = memref.alloc(%n) {alignment = 64 : i64, rtcheck.origin = "tensor.empty"} : memref<?xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[A]] : memref<?xf32>
// ANALYSIS-LABEL: func.func @chain_dynamic
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}

// Reading the previous result transposed while overwriting it is not
// elementwise: the second generic gets its own allocation.
func.func @chain_transposed_reuse(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %a = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %n = arith.negf %p : f32
    linalg.yield %n : f32
  } -> tensor<4x4xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %m = arith.mulf %p, %p : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  return %b : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @chain_transposed_reuse
// CHECK-COUNT-2: memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NOT:     memref.copy
// CHECK:         func.return
// ANALYSIS-LABEL: func.func @chain_transposed_reuse
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "false"]}

// An argument accumulated into in place and returned: the caller's buffer,
// no allocation.
func.func @update_in_place(%acc: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @update_in_place(%acc: memref<16xf32, strided<[?], offset: ?>>, %y: memref<16xf32, strided<[?], offset: ?>>) -> memref<16xf32, strided<[?], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         outs(%acc : memref<16xf32, strided<[?], offset: ?>>)
// CHECK:         func.return %acc
// ANALYSIS-LABEL: func.func @update_in_place(%acc: tensor<16xf32> {bufferization.access = "read-write"}, %y: tensor<16xf32> {bufferization.access = "read"})
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}

// A tile and an element written into an argument in place: the tile is
// copied into its place, nothing is allocated.
func.func @update_slice_in_place(%acc: tensor<8x8xf32>, %tile: tensor<2x4xf32>, %v: f32) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %s = tensor.insert_slice %tile into %acc[2, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x8xf32>
  %r = tensor.insert %v into %s[%c0, %c0] : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @update_slice_in_place
// CHECK-NOT:     memref.alloc
// CHECK:         %[[S:.*]] = memref.subview %acc[2, 4] [2, 4] [1, 1]
// CHECK-NEXT:    memref.copy{{.*}}%tile, %[[S]]
// CHECK-NEXT:    memref.store %v, %acc[%c0, %c0]
// CHECK-NEXT:    func.return %acc
// ANALYSIS-LABEL: func.func @update_slice_in_place(%acc: tensor<8x8xf32> {bufferization.access = "read-write"}, %tile: tensor<2x4xf32> {bufferization.access = "read"}, %v: f32)
// ANALYSIS:       tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS-NEXT:  tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none", "none"]}

// The callee writes its first argument; the caller reads it afterwards, so
// the call gets a copy.
func.func @caller_reads_after_call(%acc: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, f32) {
  %c3 = arith.constant 3 : index
  %r = func.call @update_in_place(%acc, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %old = tensor.extract %acc[%c3] : tensor<16xf32>
  return %r, %old : tensor<16xf32>, f32
}
// CHECK-LABEL: func.func @caller_reads_after_call
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    memref.copy{{.*}}%acc, %[[A]]
// CHECK-NOT:     memref.alloc
// CHECK:         func.call @update_in_place(
// CHECK-NEXT:    memref.load %acc[%c3]
// ANALYSIS-LABEL: func.func @caller_reads_after_call(%acc: tensor<16xf32> {bufferization.access = "read"}, %y: tensor<16xf32> {bufferization.access = "read"})
// ANALYSIS:       func.call @update_in_place(%acc, %y) {__inplace_operands_attr__ = ["false", "true"]}
// ANALYSIS-NEXT:  tensor.extract %acc[%c3] {__inplace_operands_attr__ = ["true", "none"]}

// The argument is read after the generic that would write it in place: the
// generic writes a copy instead.
func.func @conflict(%acc: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %e = tensor.empty() : tensor<16xf32>
  %later = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%acc, %r : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %r, %later : tensor<16xf32>, tensor<16xf32>
}
// CHECK-LABEL: func.func @conflict
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    memref.copy{{.*}}%acc, %[[C]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[C]] : memref<16xf32>)
// CHECK:         %[[L:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%acc, %[[C]] : {{.*}}) outs(%[[L]] : memref<16xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[C]], %[[L]]
// ANALYSIS-LABEL: func.func @conflict(%acc: tensor<16xf32> {bufferization.access = "read"}, %y: tensor<16xf32> {bufferization.access = "read"})
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "false"]}
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true", "true"]}

// The same read, before the write: no conflict, in place.
func.func @read_before_write(%acc: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, f32) {
  %c3 = arith.constant 3 : index
  %old = tensor.extract %acc[%c3] : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r, %old : tensor<16xf32>, f32
}
// CHECK-LABEL: func.func @read_before_write
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %acc, %old
// ANALYSIS-LABEL: func.func @read_before_write(%acc: tensor<16xf32> {bufferization.access = "read-write"}, %y: tensor<16xf32> {bufferization.access = "read"})
// ANALYSIS:       tensor.extract %acc[%c3] {__inplace_operands_attr__ = ["true", "none"]}
// ANALYSIS-NEXT:  attrs = {__inplace_operands_attr__ = ["true", "true"]}

// A read-only argument that is written: its copy is written instead.
func.func @read_only_argument(%acc: tensor<16xf32> {bufferization.writable = false}, %y: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<16xf32>) outs(%acc : tensor<16xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @read_only_argument
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NEXT:    memref.copy{{.*}}%acc, %[[C]]
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[C]] : memref<16xf32>)
// CHECK:         func.return %[[C]] : memref<16xf32>
// ANALYSIS-LABEL: func.func @read_only_argument(%acc: tensor<16xf32> {bufferization.writable = false, bufferization.access = "read"}, %y: tensor<16xf32> {bufferization.access = "read"})
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "false"]}
