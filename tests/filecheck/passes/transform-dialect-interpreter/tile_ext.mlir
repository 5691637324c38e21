// transform.structured.tile_ext in ByteIR's script form (its results are
// typed like the target, !pdl.operation): every op with a tiling model,
// tiled with scf.for loops, one loop handle per nonzero size, outermost
// first in interchange order; an interchange longer than the op's loops is
// cut to them (upstream's rule); a size may be a handle to an op with one
// index result.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: tensor<12x16xf32>, %[[B:.*]]: tensor<16x8xf32>, %[[C:.*]]: tensor<12x8xf32>)
// CHECK:         %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C0:.*]] = %[[C]]) -> (tensor<12x8xf32>) {
// CHECK-NEXT:      %[[R1:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C1:.*]] = %[[C0]]) -> (tensor<12x8xf32>) {
// CHECK-NEXT:        %[[R2:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C2:.*]] = %[[C1]]) -> (tensor<12x8xf32>) {
// CHECK-NEXT:          %[[SA:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[K]]] [2, 8] [1, 1] : tensor<12x16xf32> to tensor<2x8xf32>
// CHECK-NEXT:          %[[SB:.*]] = tensor.extract_slice %[[B]][%[[K]], %[[J]]] [8, 4] [1, 1] : tensor<16x8xf32> to tensor<8x4xf32>
// CHECK-NEXT:          %[[SC:.*]] = tensor.extract_slice %[[C2]][%[[I]], %[[J]]] [2, 4] [1, 1] : tensor<12x8xf32> to tensor<2x4xf32>
// CHECK-NEXT:          %[[T:.*]] = linalg.matmul ins(%[[SA]], %[[SB]] : tensor<2x8xf32>, tensor<8x4xf32>) outs(%[[SC]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:          %[[U:.*]] = tensor.insert_slice %[[T]] into %[[C2]][%[[I]], %[[J]]] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<12x8xf32>
// CHECK-NEXT:          scf.yield %[[U]] : tensor<12x8xf32>
// CHECK:         func.return %[[R]] : tensor<12x8xf32>
func.func @matmul(%a: tensor<12x16xf32>, %b: tensor<16x8xf32>, %c: tensor<12x8xf32>) -> tensor<12x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<12x16xf32>, tensor<16x8xf32>) outs(%c : tensor<12x8xf32>) -> tensor<12x8xf32>
  return %r : tensor<12x8xf32>
}

// A softmax tiled along its rows (its dimension stays whole).
// CHECK-LABEL: func.func @softmax(
// CHECK:         scf.for
// CHECK:           linalg_ext.softmax dimension(1) ins(%{{.*}} : tensor<4x8xf32>)
// CHECK:           scf.yield
func.func @softmax(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %out = tensor.empty() : tensor<16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %a = tensor.empty() : tensor<16xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<16x8xf32>)
      outs(%out, %m, %s, %a : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0 : tensor<16x8xf32>
}

// topk tiled along its rows; `interchange = [0, 1, 2]` has a loop too many.
// CHECK-LABEL: func.func @topk(
// CHECK:         scf.for
// CHECK:           linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<4x10xf32>) outs(%{{.*}}, %{{.*}} : tensor<4x3xf32>, tensor<4x3xi32>)
// CHECK:           scf.yield
func.func @topk(%x: tensor<16x10xf32>) -> (tensor<16x3xf32>, tensor<16x3xi32>) {
  %v = tensor.empty() : tensor<16x3xf32>
  %i = tensor.empty() : tensor<16x3xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%x : tensor<16x10xf32>) outs(%v, %i : tensor<16x3xf32>, tensor<16x3xi32>) {
  ^bb0(%p: f32, %q: f32):
    %gt = arith.cmpf ogt, %p, %q : f32
    linalg_ext.yield %gt : i1
  } -> tensor<16x3xf32>, tensor<16x3xi32>
  return %r#0, %r#1 : tensor<16x3xf32>, tensor<16x3xi32>
}

// A linalg_ext.batch_matmul, loops interchanged.
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK:               linalg_ext.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x4x16xf32>, tensor<2x16x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>) layout = "nn"
func.func @batch_matmul(%a: tensor<4x8x16xf32>, %b: tensor<4x16x8xf32>, %c: tensor<4x8x8xf32>) -> tensor<4x8x8xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%c : tensor<4x8x8xf32>) layout = "nn"
  return %r : tensor<4x8x8xf32>
}

// A linalg.add, the tile size read from a handle to an index op (known
// at run time only: each tile is clamped).
// CHECK-LABEL: func.func @add(
// CHECK:         %[[SIZE:.*]] = arith.divui
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[SIZE]]
// CHECK:           affine.min
// CHECK:           linalg.add ins(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<?xf32>)
// CHECK:           scf.yield
func.func @add(%x: tensor<12xf32>, %y: tensor<12xf32>, %init: tensor<12xf32>) -> tensor<12xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %x, %c0 : tensor<12xf32>
  %size = arith.divui %n, %c4 {tile_size} : index
  %r = linalg.add ins(%x, %y : tensor<12xf32>, tensor<12xf32>) outs(%init : tensor<12xf32>) -> tensor<12xf32>
  return %r : tensor<12xf32>
}

// An expand_shape tiled along an expanded dimension: 4 of its 16 rows of 4
// read 16 of the source's 64 columns.
// CHECK-LABEL: func.func @expand(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             tensor.extract_slice %{{.*}} : tensor<8x4x64xf32> to tensor<4x4x16xf32>
// CHECK-NEXT:        tensor.expand_shape %{{.*}} : tensor<4x4x16xf32> into tensor<4x4x4x4xf32>
// CHECK-NEXT:        tensor.insert_slice %{{.*}} : tensor<4x4x4x4xf32> into tensor<8x4x16x4xf32>
func.func @expand(%x: tensor<8x4x64xf32>) -> tensor<8x4x16x4xf32> {
  %e = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 4, 16, 4] : tensor<8x4x64xf32> into tensor<8x4x16x4xf32>
  return %e : tensor<8x4x16x4xf32>
}

// A scatter tiled along its batch loop (a reduction: the tiles update the
// same src tile in turn) and its window loops, interchanged.
// CHECK-LABEL: func.func @scatter(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK:               linalg_ext.scatter ins(%{{.*}}, %{{.*}} : tensor<2x2xi64>, tensor<2x4x3xf32>) outs(%{{.*}} : tensor<2x3x4x3xf32>)
func.func @scatter(%src: tensor<2x3x8x6xf32>, %indices: tensor<10x2xi64>, %updates: tensor<10x8x6xf32>) -> tensor<2x3x8x6xf32> {
  %r = linalg_ext.scatter ins(%indices, %updates : tensor<10x2xi64>, tensor<10x8x6xf32>) outs(%src : tensor<2x3x8x6xf32>) {
  ^bb0(%u: f32, %s: f32):
    %a = arith.addf %u, %s : f32
    linalg_ext.yield %a : f32
  } -> tensor<2x3x8x6xf32>
  return %r : tensor<2x3x8x6xf32>
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  %t0, %l0:3 = transform.structured.tile_ext %mm [2, 4, 8] {interchange = [2, 1, 0]}
  %sm = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!pdl.operation) -> !pdl.operation
  %t1, %l1 = transform.structured.tile_ext %sm [4]
  %tk = transform.structured.match ops{["linalg_ext.topk"]} in %root : (!pdl.operation) -> !pdl.operation
  %t2, %l2 = transform.structured.tile_ext %tk [4, 0] {interchange = [0, 1, 2]}
  %bm = transform.structured.match ops{["linalg_ext.batch_matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  %t3, %l3:3 = transform.structured.tile_ext %bm [2, 4, 8] {interchange = [0, 2, 1]}
  %mp = transform.structured.match ops{["linalg.add"]} in %root : (!pdl.operation) -> !pdl.operation
  %sz = transform.structured.match attributes {tile_size} in %root : (!pdl.operation) -> !pdl.operation
  %t4, %l4 = transform.structured.tile_ext %mp [%sz]
  %ex = transform.structured.match ops{["tensor.expand_shape"]} in %root : (!pdl.operation) -> !pdl.operation
  %t5, %l5:2 = transform.structured.tile_ext %ex [4, 0, 4]
  %sc = transform.structured.match ops{["linalg_ext.scatter"]} in %root : (!pdl.operation) -> !pdl.operation
  %t6, %l6:3 = transform.structured.tile_ext %sc [2, 4, 3] {interchange = [1, 2, 0]}
}
