// Reshapes between elementwise ops: a consumer of a tensor.collapse_shape is
// expanded to read the collapse's source, a producer of a tensor.expand_shape
// is expanded to produce its result, and the two generics then fuse (upstream's
// folding of reshapes by expansion, with ByteIR's constant results).
// RUN: xdsl-opt %s -p linalg-fuse-elementwise-ext | filecheck %s
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{report=true}" 2>&1 | filecheck %s --check-prefix=REPORT
// RUN: xdsl-opt %s -p "linalg-fuse-elementwise-ext{math-into-reduction=true}" | filecheck %s --check-prefix=MATH

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Seed 002: the consumer reads %arg3 and %arg2 through (d0, 0), which upstream
// does not expand. Its loop d0 splits into 1x256; the constant stays.
func.func @constant_in_affine_map_with_collapse_shape(%arg0: tensor<1x256x1024xf32>, %arg1: tensor<256x1024xf16>, %arg2: tensor<256x1xf32>, %arg3: tensor<256x1xf32>) -> tensor<256x1024xf32> {
  %expanded = tensor.expand_shape %arg1 [[0, 1], [2]] output_shape [1, 256, 1024] : tensor<256x1024xf16> into tensor<1x256x1024xf16>
  %0 = tensor.empty() : tensor<1x256x1024xf32>
  %1 = tensor.empty() : tensor<256x1024xf32>
  %2 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg0 : tensor<1x256x1024xf16>, tensor<1x256x1024xf32>) outs(%0 : tensor<1x256x1024xf32>) {
  ^bb0(%in: f16, %in_0: f32, %out: f32):
    %4 = arith.extf %in : f16 to f32
    %5 = arith.addf %in_0, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<1x256x1024xf32>
  %collapsed = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<1x256x1024xf32> into tensor<256x1024xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%arg3, %arg2, %collapsed : tensor<256x1xf32>, tensor<256x1xf32>, tensor<256x1024xf32>) outs(%1 : tensor<256x1024xf32>) {
  ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
    %4 = arith.subf %in_1, %in_0 : f32
    %5 = arith.mulf %4, %in : f32
    linalg.yield %5 : f32
  } -> tensor<256x1024xf32>
  return %3 : tensor<256x1024xf32>
}
// CHECK-LABEL: func.func @constant_in_affine_map_with_collapse_shape
// CHECK:      %[[X:.*]] = tensor.expand_shape %arg1 {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 256, 1024] : tensor<256x1024xf16> into tensor<1x256x1024xf16>
// CHECK-NEXT: %[[A3:.*]] = tensor.expand_shape %arg3 {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 256, 1] : tensor<256x1xf32> into tensor<1x256x1xf32>
// CHECK-NEXT: %[[A2:.*]] = tensor.expand_shape %arg2 {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 256, 1] : tensor<256x1xf32> into tensor<1x256x1xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<1x256x1024xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %arg0, %[[A3]], %[[A2]] : tensor<1x256x1024xf16>, tensor<1x256x1024xf32>, tensor<1x256x1xf32>, tensor<1x256x1xf32>) outs(%[[E]] : tensor<1x256x1024xf32>) {
// CHECK:        arith.extf
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   arith.subf
// CHECK-NEXT:   arith.mulf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> tensor<1x256x1024xf32>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[F]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<1x256x1024xf32> into tensor<256x1024xf32>
// CHECK-NEXT: func.return %[[C]] : tensor<256x1024xf32>

// What upstream does too (mlir-opt-22 --linalg-fuse-elementwise-ops gives one
// generic): every map is a projected permutation; the producer's result map
// is a transpose.
func.func @collapse_between_generics(%a: tensor<4x3x2xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d2, d1, d0)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<4x3x2xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @collapse_between_generics
// CHECK:      %[[B:.*]] = tensor.expand_shape %b {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a, %[[B]] : tensor<4x3x2xf32>, tensor<2x3x4xf32>) outs(%[[E]] : tensor<2x3x4xf32>) {
// CHECK:        math.exp
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[U:.*]] = tensor.collapse_shape %[[F]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: func.return %[[U]]

// Dynamic sizes: loop d0 splits into ?x1, the ? being the size %n the
// producer's init was made with; d1 stays one loop, %b keeping its own size.
func.func @dynamic_sizes(%a: tensor<?x1x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %a, %c0 : tensor<?x1x?xf32>
  %m = tensor.dim %a, %c2 : tensor<?x1x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x1x?xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<?x1x?xf32>) outs(%e : tensor<?x1x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<?x1x?xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
  %u = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%b : tensor<?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    %s = arith.addf %r, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK:      %n = tensor.dim %a, %c0 : tensor<?x1x?xf32>
// CHECK:      %[[M:.*]] = tensor.dim %b, %{{.*}} : tensor<?x?xf32>
// CHECK-NEXT: %[[B:.*]] = tensor.expand_shape %b {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [%n, 1, %[[M]]] : tensor<?x?xf32> into tensor<?x1x?xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.generic {{.*}} ins(%a, %[[B]] : tensor<?x1x?xf32>, tensor<?x1x?xf32>) outs(%[[B]] : tensor<?x1x?xf32>) {
// CHECK:        math.exp
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   arith.addf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> tensor<?x1x?xf32>
// CHECK-NEXT: %u = tensor.collapse_shape %[[F]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<?x1x?xf32> into tensor<?x?xf32>
// CHECK-NEXT: func.return %u

// A split reduction loop: d1 (12) becomes two reduction loops 3x4, visited in
// the same order, and `linalg.index 1` their linearization (MATH). By
// default the exp is not fused into the reduction (reduction_cost.mlir), so
// the consumer is not expanded either.
func.func @split_reduction_with_index(%a: tensor<2x3x4xf32>, %acc: tensor<2xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  %u = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<2x12xf32>) outs(%acc : tensor<2xf32>) {
  ^bb0(%p: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %p, %f : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  return %u : tensor<2xf32>
}
// CHECK-LABEL: func.func @split_reduction_with_index
// CHECK:      %t = linalg.generic
// CHECK:      %c = tensor.collapse_shape %t
// CHECK-NEXT: %u = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<2x12xf32>)
// REPORT: @split_reduction_with_index: %t into %u not fused: the producer computes math.exp and the consumer has reduction loops
// MATH-LABEL: func.func @split_reduction_with_index
// MATH-NEXT: %u = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%a : tensor<2x3x4xf32>) outs(%acc : tensor<2xf32>) {
// MATH:        math.exp
// MATH-NEXT:   %[[I:.*]] = linalg.index 1 : index
// MATH-NEXT:   %[[J:.*]] = linalg.index 2 : index
// MATH-NEXT:   %{{.*}} = affine.apply affine_map<(d0, d1) -> (((d0 * 4) + d1))> (%[[I]], %[[J]])
// MATH:      } -> tensor<2xf32>
// MATH-NEXT: func.return %u

// A tensor.expand_shape of a generic's result: the producer is expanded to
// produce 2x3x4 itself (its `linalg.index 0` linearized), then fused.
func.func @expand_of_generic(%a: tensor<6x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %r = arith.addf %x, %f : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %u = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.mulf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @expand_of_generic
// CHECK-NEXT: %[[A:.*]] = tensor.expand_shape %a {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK-NEXT: %e3 = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT: %u = linalg.generic {{.*}} ins(%[[A]], %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) {
// CHECK:        %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %{{.*}} = affine.apply affine_map<(d0, d1) -> (((d0 * 3) + d1))> (%[[I]], %[[J]])
// CHECK:        arith.mulf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> tensor<2x3x4xf32>
// CHECK-NEXT: func.return %u

// The producer is also returned: after the expansion it has the consumer's
// shape and stays a result of the fused op.
func.func @producer_also_returned(%a: tensor<2x3x4xf32>, %b: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>) {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.subf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %u, %t : tensor<6x4xf32>, tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @producer_also_returned
// CHECK:      %[[B:.*]] = tensor.expand_shape %b {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
// CHECK:      %t, %[[F:.*]] = linalg.generic {{.*}} ins(%a, %[[B]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK:        math.exp
// CHECK-NEXT:   arith.subf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK-NEXT: %u = tensor.collapse_shape %[[F]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: func.return %u, %t

// A producer expanded into 2x3x4 keeps its 6x4 result for the return, through
// a tensor.collapse_shape placed before it.
func.func @expand_of_returned_generic(%a: tensor<6x4xf32>, %b: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<6x4xf32>) {
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.sqrt %x : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %u = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.divf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  return %u, %t : tensor<2x3x4xf32>, tensor<6x4xf32>
}
// CHECK-LABEL: func.func @expand_of_returned_generic
// CHECK:      %[[P:.*]], %u = linalg.generic {{.*}} ins(%{{.*}}, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK:        math.sqrt
// CHECK-NEXT:   arith.divf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK-NEXT: %t = tensor.collapse_shape %[[P]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: func.return %u, %t

// A chain through a 1-d op: collapse, fuse, and the expand_shape of the
// collapsed result folds away, so all three ops become one.
func.func @collapse_then_expand(%a: tensor<2x3x4xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  %e1 = tensor.empty() : tensor<24xf32>
  %u = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%c : tensor<24xf32>) outs(%e1 : tensor<24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<24xf32>
  %x = tensor.expand_shape %u [[0, 1, 2]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>
  %v = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x0: f32, %y: f32, %o: f32):
    %r = arith.mulf %x0, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  return %v : tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @collapse_then_expand
// CHECK-NEXT: %e = tensor.empty() : tensor<2x3x4xf32>
// CHECK-NEXT: %v = linalg.generic {{.*}} ins(%a, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
// CHECK:        math.exp
// CHECK-NEXT:   arith.negf
// CHECK-NEXT:   arith.mulf
// CHECK-NEXT:   linalg.yield
// CHECK-NEXT: } -> tensor<2x3x4xf32>
// CHECK-NEXT: func.return %v

// Left as they are, with the reason `report` prints.

// A collapse of an argument: nothing to fuse after expanding (upstream expands
// the op anyway; we leave it). No report: there is no producer generic.
func.func @collapse_of_argument(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @collapse_of_argument
// REPORT-NOT: @collapse_of_argument:
// CHECK-NEXT: %c = tensor.collapse_shape %a {{\[}}[0 : i64, 1 : i64], [2 : i64]]
// CHECK:      %u = linalg.generic {{.*}} ins(%c : tensor<6x4xf32>)

// The collapsed tensor itself is read through a constant (ByteIR's TODO too).
func.func @constant_in_collapsed_map(%a: tensor<6x2x4xf32>, %b: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %e = tensor.empty() : tensor<6x2x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<6x2x4xf32>) outs(%e : tensor<6x2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<6x2x4xf32>
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<6x2x4xf32> into tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<6x5xf32>
  %first = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<6x8xf32>, tensor<6x5xf32>) outs(%e2 : tensor<6x5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x5xf32>
  return %first : tensor<6x5xf32>
}
// CHECK-LABEL: func.func @constant_in_collapsed_map
// CHECK:      %t = linalg.generic
// CHECK:      %c = tensor.collapse_shape
// CHECK:      %first = linalg.generic {{.*}} ins(%c
// REPORT: @constant_in_collapsed_map: %t into %first not fused: the map of input #0, the collapsed tensor, is not a projected permutation ((d0, d1) -> (d0, 0))

// Another operand's map is no projected permutation.
func.func @diagonal_operand(%a: tensor<2x3x4xf32>, %d: tensor<6x6xf32>) -> tensor<6x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %diag = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0, d0)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %d : tensor<6x4xf32>, tensor<6x6xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %diag : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @diagonal_operand
// CHECK:      %t = linalg.generic
// CHECK:      %c = tensor.collapse_shape
// CHECK:      %diag = linalg.generic {{.*}} ins(%c
// REPORT: @diagonal_operand: %t into %diag not fused: the map of input #1 is not a projected permutation with constants ((d0, d1) -> (d0, d0))

// The producer reduces: expanding the consumer would fuse nothing.
func.func @reduction_producer(%a: tensor<2x3x4x5xf32>, %acc: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %sum [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %neg = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %neg : tensor<6x4xf32>
}
// CHECK-LABEL: func.func @reduction_producer
// CHECK:      %sum = linalg.generic
// CHECK:      %c = tensor.collapse_shape
// CHECK:      %neg = linalg.generic {{.*}} ins(%c
// REPORT: @reduction_producer: %sum into %neg not fused: the producer has reduction iterators

// The collapsed tensor is returned too.
func.func @collapse_also_returned(%a: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %t = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %shared = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  } -> tensor<6x4xf32>
  return %shared, %c : tensor<6x4xf32>, tensor<6x4xf32>
}
// CHECK-LABEL: func.func @collapse_also_returned
// CHECK:      %t = linalg.generic
// CHECK:      %c = tensor.collapse_shape
// CHECK:      %shared = linalg.generic {{.*}} ins(%c
// REPORT: @collapse_also_returned: %t into %shared not fused: the tensor.collapse_shape has users other than the consumer's inputs
