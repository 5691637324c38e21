// tensor.cast operands that only make a type less static fold into
// linalg_ext ops (ByteIR's FoldTensorCastOp, upstream's
// FoldTensorCastProducerOp for linalg ops): the op reads the more static
// value and its results, more static too, are cast back for their users.
// RUN: xdsl-opt %s -p canonicalize-ext | filecheck %s

// CHECK-LABEL: func.func @diag
// CHECK-NEXT:  %[[D:.*]] = linalg_ext.diag ins(%v : tensor<3xf32>) outs(%init : tensor<3x3xf32>) : tensor<3x3xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.cast %[[D]] : tensor<3x3xf32> to tensor<?x?xf32>
// CHECK-NEXT:  func.return %[[C]]
func.func @diag(%v: tensor<3xf32>, %init: tensor<3x3xf32>) -> tensor<?x?xf32> {
  %a = tensor.cast %v : tensor<3xf32> to tensor<?xf32>
  %b = tensor.cast %init : tensor<3x3xf32> to tensor<?x?xf32>
  %d = linalg_ext.diag ins(%a : tensor<?xf32>) outs(%b : tensor<?x?xf32>) : tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// The cast back folds into a cast to the static type that follows.
// CHECK-LABEL: func.func @scan
// CHECK-NEXT:  %{{.*}}, %{{.*}} = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<4xi32>) outs(%o, %acc : tensor<4xi32>, tensor<i32>)
// CHECK:       -> tensor<4xi32>, tensor<i32>
// CHECK-NOT:   tensor.cast
func.func @scan(%x: tensor<4xi32>, %o: tensor<4xi32>, %acc: tensor<i32>) -> (tensor<4xi32>, tensor<i32>) {
  %a = tensor.cast %x : tensor<4xi32> to tensor<?xi32>
  %b = tensor.cast %o : tensor<4xi32> to tensor<?xi32>
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%a : tensor<?xi32>) outs(%b, %acc : tensor<?xi32>, tensor<i32>) {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    linalg_ext.yield %s : i32
  } -> tensor<?xi32>, tensor<i32>
  %c = tensor.cast %r#0 : tensor<?xi32> to tensor<4xi32>
  return %c, %r#1 : tensor<4xi32>, tensor<i32>
}

// A cast to a more static type is a check, not a loss of information: kept.
// CHECK-LABEL: func.func @more_static_cast_kept
// CHECK-NEXT:  %[[A:.*]] = tensor.cast %v : tensor<?xf32> to tensor<4xf32>
// CHECK-NEXT:  linalg_ext.diag ins(%[[A]] : tensor<4xf32>)
func.func @more_static_cast_kept(%v: tensor<?xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = tensor.cast %v : tensor<?xf32> to tensor<4xf32>
  %d = linalg_ext.diag ins(%a : tensor<4xf32>) outs(%init : tensor<4x4xf32>) : tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
