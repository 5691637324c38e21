// transform.structured.fold_unit_extent_dims (ByteIR's op, script form):
// each target linalg.generic loses its unit-extent loops and dimensions
// (the rewriting of linalg-fold-unit-extent-dims: operands collapsed,
// results expanded back); the result handle holds the new generics, which
// a second transform op below reaches.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// ByteIR's case: a broadcast operand read as (0, d1, d2) loses its unit
// dim; no loop is a unit loop. Also annotated through the result handle.
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = tensor.collapse_shape %y {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<1x3x4xf32> into tensor<3x4xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %[[Y]] : tensor<2x3x4xf32>, tensor<3x4xf32>) outs(%[[E]] : tensor<2x3x4xf32>) attrs = {{.*}}__folded__}
func.func @broadcast_add(%x: tensor<2x3x4xf32>, %y: tensor<1x3x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x3x4xf32>, tensor<1x3x4xf32>) outs(%e : tensor<2x3x4xf32>) attrs = {__fold__} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// A unit loop dropped (where ByteIR's op keeps every loop), on tensors
// and on memrefs (ByteIR's op builds tensor.collapse_shape on memrefs).
// CHECK-LABEL: func.func @row_sum(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.collapse_shape %o [] : tensor<1xf32> into tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[X]] : tensor<4xf32>) outs(%[[O]] : tensor<f32>) attrs = {{.*}}__folded__}
// CHECK:         %{{.*}} = tensor.expand_shape %[[R]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-LABEL: func.func @scale(
// CHECK-NEXT:    %[[X:.*]] = memref.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : memref<3x1xf32> into memref<3xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%[[X]] : memref<3xf32>) attrs = {{.*}}__folded__}
func.func @row_sum(%x: tensor<1x4xf32>, %o: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x4xf32>) outs(%o : tensor<1xf32>) attrs = {__fold__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}
func.func @scale(%x: memref<3x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%x : memref<3x1xf32>) attrs = {__fold__} {
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  }
  return
}

// Unlike the pass, an empty init is collapsed as it is: no op but the
// target is replaced.
// CHECK-LABEL: func.func @empty_init(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3xf32>
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-NEXT:    %[[CE:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0 : i64, 1 : i64]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {{.*}} ins(%[[X]] : tensor<3xf32>) outs(%[[CE]] : tensor<3xf32>) attrs = {{.*}}__folded__}
func.func @empty_init(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) attrs = {__fold__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// Nothing to drop: the generic stays, and is in the result handle.
// CHECK-LABEL: func.func @nothing(
// CHECK-NEXT:    %{{.*}} = linalg.generic {{.*}} ins(%x : tensor<3xf32>) outs(%x : tensor<3xf32>) attrs = {{.*}}__folded__}
func.func @nothing(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%x : tensor<3xf32>) attrs = {__fold__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__fold__} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.fold_unit_extent_dims %0
  transform.annotate_ext %1 {__folded__}
}
