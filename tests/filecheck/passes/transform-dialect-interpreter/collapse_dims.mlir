// transform.structured.collapse_dims (ByteIR's op, script form): the loops
// of a linalg.generic merge group by group; operands are collapsed, the
// results expanded back; the handle returned holds the new generic
// (annotated here to show it).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// ByteIR's test, smaller: the broadcast input names only the merged loops.
// CHECK-LABEL: func.func @broadcast_add(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4xf32>, %[[Y:.*]]: tensor<3x4xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT:    %[[CX:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK-NEXT:    %[[CY:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0 : i64, 1 : i64]] : tensor<3x4xf32> into tensor<12xf32>
// CHECK-NEXT:    %[[CE:.*]] = tensor.collapse_shape %[[E]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[CX]], %[[CY]] : tensor<2x12xf32>, tensor<12xf32>) outs(%[[CE]] : tensor<2x12xf32>) attrs = {__a__, __collapsed__} {
// CHECK:         } -> tensor<2x12xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.expand_shape %[[G]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] output_shape [2, 3, 4] : tensor<2x12xf32> into tensor<2x3x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @broadcast_add(%x: tensor<2x3x4xf32>, %y: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<2x3x4xf32>) attrs = {__a__} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// Two reduction loops, in their order, become one: the result is not
// reshaped (it names neither).
// CHECK-LABEL: func.func @row_sums(
// CHECK:         %[[CX:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<2x3x4xf32> into tensor<2x12xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[CX]] : tensor<2x12xf32>) outs(%{{.*}} : tensor<2xf32>) attrs = {__b__, __collapsed__} {
// CHECK:         } -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[G]]
func.func @row_sums(%x: tensor<2x3x4xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>],
                       iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<2xf32>) attrs = {__b__} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// Only some loops grouped (the others stay alone), an input read
// transposed, and linalg.index of a loop that is not merged, renumbered.
// CHECK-LABEL: func.func @partial(
// CHECK:         %[[CX:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<4x2x3xf32> into tensor<4x6xf32>
// CHECK-NEXT:    %[[CE:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[CX]] : tensor<4x6xf32>) outs(%[[CE]] : tensor<6x4xf32>) attrs = {__c__, __collapsed__} {
// CHECK-NEXT:    ^{{.*}}(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[K:.*]] = linalg.index 1 : index
// CHECK:         tensor.expand_shape %[[G]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
func.func @partial(%x: tensor<4x2x3xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<4x2x3xf32>) outs(%e : tensor<2x3x4xf32>) attrs = {__c__} {
  ^bb0(%a: f32, %o: f32):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %s = arith.mulf %a, %kf : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}

// Groups of one merge nothing: the generic is kept and returned (ByteIR
// fails: "failed to collapsed dims").
// CHECK-LABEL: func.func @nothing_merged(
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) attrs = {__collapsed__, __d__} {
// CHECK:         func.return %[[G]]
func.func @nothing_merged(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) attrs = {__d__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// linalg.index of merged loops: each old index is computed from the
// merged one (ByteIR's upstream rewrite does this too; linalg-collapse-loops
// leaves such generics alone).
// CHECK-LABEL: func.func @index_of_merged(
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%{{.*}} : tensor<24xindex>)
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:      %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[C12:.*]] = arith.constant 12 : index
// CHECK-NEXT:      %[[I0:.*]] = arith.divui %[[I]], %[[C12]] : index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[Q:.*]] = arith.divui %[[J]], %[[C4]] : index
// CHECK-NEXT:      %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[J1:.*]] = arith.remui %[[Q]], %[[C3]] : index
// CHECK-NEXT:      %[[K:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[K2:.*]] = arith.remui %[[K]], %[[C4B]] : index
// CHECK-NEXT:      %[[T:.*]] = arith.muli %[[I0]], %[[J1]] : index
// CHECK-NEXT:      arith.addi %[[T]], %[[K2]] : index
func.func @index_of_merged(%o: tensor<2x3x4xindex>) -> tensor<2x3x4xindex> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%o : tensor<2x3x4xindex>) attrs = {__e__} {
  ^bb0(%b: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %t = arith.muli %i, %j : index
    %u = arith.addi %t, %k : index
    linalg.yield %u : index
  } -> tensor<2x3x4xindex>
  return %r : tensor<2x3x4xindex>
}

// Dynamic extents: the collapsed extents are dynamic, the old index is
// divided by a tensor.dim, and the result is expanded to the init's sizes.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[X:.*]]: tensor<?x3x?xf32>, %[[Y:.*]]: tensor<?x3x?xf32>)
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[N:.*]] = tensor.dim %[[X]], %[[C2]] : tensor<?x3x?xf32>
// CHECK-NEXT:    %[[CX:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<?x3x?xf32> into tensor<?x?xf32>
// CHECK-NEXT:    %[[CY:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<?x3x?xf32> into tensor<?x?xf32>
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {{.*}} ins(%[[CX]] : tensor<?x?xf32>) outs(%[[CY]] : tensor<?x?xf32>)
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %{{.*}} = arith.divui %[[J]], %[[N]] : index
// CHECK:         %[[D0:.*]] = tensor.dim %[[Y]], %{{.*}} : tensor<?x3x?xf32>
// CHECK:         %[[D2:.*]] = tensor.dim %[[Y]], %{{.*}} : tensor<?x3x?xf32>
// CHECK-NEXT:    tensor.expand_shape %[[G]] {{\[}}[0 : i64], [1 : i64, 2 : i64]] output_shape [%[[D0]], 3, %[[D2]]] : tensor<?x?xf32> into tensor<?x3x?xf32>
func.func @dynamic(%x: tensor<?x3x?xf32>, %y: tensor<?x3x?xf32>) -> tensor<?x3x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x3x?xf32>) outs(%y : tensor<?x3x?xf32>) attrs = {__f__} {
  ^bb0(%a: f32, %b: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %s = arith.addf %a, %jf : f32
    linalg.yield %s : f32
  } -> tensor<?x3x?xf32>
  return %r : tensor<?x3x?xf32>
}

// On memrefs: memref.collapse_shape, and no results to expand.
// CHECK-LABEL: func.func @on_memrefs(
// CHECK-NEXT:    %[[CX:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0 : i64], [1 : i64, 2 : i64]] : memref<2x3x4xf32> into memref<2x12xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[CX]] : memref<2x12xf32>) outs(%{{.*}} : memref<2xf32>)
func.func @on_memrefs(%x: memref<2x3x4xf32>, %o: memref<2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<2x3x4xf32>) outs(%o : memref<2xf32>) attrs = {__g__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__a__} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.collapse_dims %0 [[0], [1, 2]]
  transform.annotate_ext %1 {__collapsed__}
  %2 = transform.structured.match attributes {__b__} in %root : (!pdl.operation) -> !pdl.operation
  %3 = transform.structured.collapse_dims %2 [[0], [1, 2]]
  transform.annotate_ext %3 {__collapsed__}
  %4 = transform.structured.match attributes {__c__} in %root : (!pdl.operation) -> !pdl.operation
  %5 = transform.structured.collapse_dims %4 [[0, 1]]
  transform.annotate_ext %5 {__collapsed__}
  %6 = transform.structured.match attributes {__d__} in %root : (!pdl.operation) -> !pdl.operation
  %7 = transform.structured.collapse_dims %6 [[0], [1]]
  transform.annotate_ext %7 {__collapsed__}
  %8 = transform.structured.match attributes {__e__} in %root : (!pdl.operation) -> !pdl.operation
  %9 = transform.structured.collapse_dims %8 [[0, 1, 2]]
  %10 = transform.structured.match attributes {__f__} in %root : (!pdl.operation) -> !pdl.operation
  %11 = transform.structured.collapse_dims %10 [[0], [1, 2]]
  %12 = transform.structured.match attributes {__g__} in %root : (!pdl.operation) -> !pdl.operation
  %13 = transform.structured.collapse_dims %12 [[0], [1, 2]]
}
