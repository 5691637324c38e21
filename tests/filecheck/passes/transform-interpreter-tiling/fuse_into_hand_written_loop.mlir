// fuse_into_containing_op into a loop written by hand: the loop reads the
// producer (an exp) through a slice of its rows, itself sliced in two halves.
// The rows' slice becomes the exp of those rows, computed in the loop; the
// halves now slice that tile; the whole exp is gone.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @chain
  func.func @chain(%a: tensor<8x8xf32>, %out: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c4 = arith.constant 4 : index
    %e = tensor.empty() : tensor<8x8xf32>
    %p = linalg.exp ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
    %r = scf.for %i = %c0 to %c8 step %c4 iter_args(%acc = %out) -> (tensor<8x4xf32>) {
      %rows = tensor.extract_slice %p[%i, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
      %left = tensor.extract_slice %rows[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
      %right = tensor.extract_slice %rows[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
      %d = tensor.extract_slice %acc[%i, 0] [4, 4] [1, 1] : tensor<8x4xf32> to tensor<4x4xf32>
      %s = linalg.add ins(%left, %right : tensor<4x4xf32>, tensor<4x4xf32>) outs(%d : tensor<4x4xf32>) -> tensor<4x4xf32>
      %u = tensor.insert_slice %s into %acc[%i, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x4xf32>
      scf.yield %u : tensor<8x4xf32>
    }
    return %r : tensor<8x4xf32>
  }
  // CHECK-NOT:  linalg.exp
  // CHECK:      scf.for %[[I:.*]] = %c0 to %c8 step %c4 iter_args(%{{.*}} = %out) -> (tensor<8x4xf32>) {
  // CHECK-NEXT:   %[[A:.*]] = tensor.extract_slice %a[%[[I]], 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  // CHECK-NEXT:   %[[E:.*]] = tensor.extract_slice %e[%[[I]], 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  // CHECK-NEXT:   %[[ROWS:.*]] = linalg.exp ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK-NEXT:   tensor.extract_slice %[[ROWS]][0, 0] [4, 4] [1, 1]
  // CHECK-NEXT:   tensor.extract_slice %[[ROWS]][0, 4] [4, 4] [1, 1]
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %f, %c = transform.structured.fuse_into_containing_op %p into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
