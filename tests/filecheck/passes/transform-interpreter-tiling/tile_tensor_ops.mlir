// tile_using_for on tensor ops: a tensor.pad tiled 4x3 over its result (each
// tile reads only the part of the source it needs, clamped, and pads the
// rest: no out-of-bounds slice, tiles in the border read nothing), and a
// tensor.collapse_shape tiled along the outer dimension of its first group
// (tile sizes count source rows: 2 source rows are 6 result rows).
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @pad(
  func.func @pad(%x: tensor<5x6xf32>) -> tensor<9x8xf32> {
    %cst = arith.constant 1.5 : f32
    %p = tensor.pad %x low[1, 0] high[3, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<5x6xf32> to tensor<9x8xf32>
    return %p : tensor<9x8xf32>
  }
  // CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
  // CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
  // CHECK:          %[[SRC:.*]] = tensor.extract_slice %x[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<5x6xf32> to tensor<?x?xf32>
  // CHECK-NEXT:     %[[PAD:.*]] = tensor.pad %[[SRC]] low[%{{.*}}, 0] high[%{{.*}}, %{{.*}}]
  // CHECK:          tensor.insert_slice %[[PAD]] into %[[ACC]][%[[I]], %[[J]]]

  // CHECK-LABEL: func.func @collapse(
  // CHECK:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
  // CHECK-NEXT:   %[[ROWS:.*]] = tensor.extract_slice %x[%[[K]], 0, 0] [2, 3, 5] [1, 1, 1] : tensor<4x3x5xf32> to tensor<2x3x5xf32>
  // CHECK-NEXT:   %[[C:.*]] = tensor.collapse_shape %[[ROWS]] {{.*}} : tensor<2x3x5xf32> into tensor<6x5xf32>
  // CHECK-NEXT:   %[[AT:.*]] = affine.apply affine_map<(d0) -> ((d0 * 3))> (%[[K]])
  // CHECK-NEXT:   tensor.insert_slice %[[C]] into %{{.*}}[%[[AT]], 0] [6, 5] [1, 1] : tensor<6x5xf32> into tensor<12x5xf32>
  func.func @collapse(%x: tensor<4x3x5xf32>) -> tensor<12x5xf32> {
    %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x3x5xf32> into tensor<12x5xf32>
    return %c : tensor<12x5xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %pad = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %pad tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %col = transform.structured.match ops{["tensor.collapse_shape"]} in %root : (!transform.any_op) -> !transform.any_op
    %t2, %l2 = transform.structured.tile_using_for %col tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
