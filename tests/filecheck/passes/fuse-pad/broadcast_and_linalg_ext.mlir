// linalg.broadcast and linalg_ext.diag are all-parallel structured producers:
// each is computed straight into the interior of its padding. diag writes its
// whole output, so no init is copied into the interior first.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s
// RUN: xdsl-opt %s -p "fuse-pad{fill=border}" | filecheck %s --check-prefix=BORDER

func.func @broadcast_rows(%row: tensor<5xf32>, %v: f32) -> tensor<4x7xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %b = linalg.broadcast ins(%row : tensor<5xf32>) outs(%e : tensor<3x5xf32>) dimensions = [0]
  %p = tensor.pad %b low[1, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<4x7xf32>
  return %p : tensor<4x7xf32>
}
// CHECK-LABEL: func.func @broadcast_rows
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<4x7xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%v : f32) outs(%[[E]] : tensor<4x7xf32>) -> tensor<4x7xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][1, 2] [3, 5] [1, 1] : tensor<4x7xf32> to tensor<3x5xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.broadcast ins(%row : tensor<5xf32>) outs(%[[S]] : tensor<3x5xf32>) dimensions = [0]
// CHECK-NEXT: %[[P:.*]] = tensor.insert_slice %[[B]] into %[[F]][1, 2] [3, 5] [1, 1] : tensor<3x5xf32> into tensor<4x7xf32>
// CHECK-NEXT: func.return %[[P]]
// BORDER-LABEL: func.func @broadcast_rows
// BORDER-NOT:   linalg.fill ins(%v : f32) outs(%{{.*}} : tensor<4x7xf32>)
// BORDER:       linalg.broadcast ins(%row : tensor<5xf32>)
// BORDER-NOT:   tensor.pad

func.func @broadcast_dynamic(%col: tensor<?xf32>, %e: tensor<?x3xf32>, %lo: index) -> tensor<?x4xf32> {
  %zero = arith.constant 0.0 : f32
  %b = linalg.broadcast ins(%col : tensor<?xf32>) outs(%e : tensor<?x3xf32>) dimensions = [1]
  %p = tensor.pad %b low[%lo, 1] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x3xf32> to tensor<?x4xf32>
  return %p : tensor<?x4xf32>
}
// CHECK-LABEL: func.func @broadcast_dynamic
// CHECK:      %[[S:.*]] = tensor.extract_slice %{{.*}}[%lo, 1] [%{{.*}}, 3] [1, 1] : tensor<?x4xf32> to tensor<?x3xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.broadcast ins(%col : tensor<?xf32>) outs(%[[S]] : tensor<?x3xf32>) dimensions = [1]
// CHECK-NEXT: %{{.*}} = tensor.insert_slice %[[B]] into %{{.*}}[%lo, 1] [%{{.*}}, 3] [1, 1]
// CHECK-NOT:  tensor.pad

func.func @diag(%d: tensor<2x3xf32>, %v: f32) -> tensor<2x5x4xf32> {
  %e = tensor.empty() : tensor<2x3x3xf32>
  %m = linalg_ext.diag ins(%d : tensor<2x3xf32>) outs(%e : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
  %p = tensor.pad %m low[0, 1, 0] high[0, 1, 1] {
  ^bb0(%b: index, %i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3x3xf32> to tensor<2x5x4xf32>
  return %p : tensor<2x5x4xf32>
}
// CHECK-LABEL: func.func @diag
// CHECK:      %[[F:.*]] = linalg.fill ins(%v : f32) outs(%{{.*}} : tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][0, 1, 0] [2, 3, 3] [1, 1, 1] : tensor<2x5x4xf32> to tensor<2x3x3xf32>
// CHECK-NEXT: %[[D:.*]] = linalg_ext.diag ins(%d : tensor<2x3xf32>) outs(%[[S]] : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
// CHECK-NEXT: %{{.*}} = tensor.insert_slice %[[D]] into %[[F]][0, 1, 0] [2, 3, 3] [1, 1, 1]
// CHECK-NOT:  tensor.pad
// BORDER-LABEL: func.func @diag
// BORDER-NOT:   linalg.fill ins(%v : f32) outs(%{{.*}} : tensor<2x5x4xf32>)
// BORDER:       linalg_ext.diag
// BORDER-NOT:   tensor.pad

// The diag result has another user: computed once, that user reads the interior.
func.func @diag_other_use(%d: tensor<3xf32>, %v: f32) -> (tensor<5x5xf32>, tensor<3x3xf32>) {
  %e = tensor.empty() : tensor<3x3xf32>
  %m = linalg_ext.diag ins(%d : tensor<3xf32>) outs(%e : tensor<3x3xf32>) : tensor<3x3xf32>
  %p = tensor.pad %m low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x3xf32> to tensor<5x5xf32>
  return %p, %m : tensor<5x5xf32>, tensor<3x3xf32>
}
// CHECK-LABEL: func.func @diag_other_use
// CHECK-COUNT-1: linalg_ext.diag
// CHECK:      %[[P:.*]] = tensor.insert_slice
// CHECK-NEXT: %[[V:.*]] = tensor.extract_slice %[[P]][1, 1] [3, 3] [1, 1] : tensor<5x5xf32> to tensor<3x3xf32>
// CHECK-NEXT: func.return %[[P]], %[[V]]
