// Upstream `--canonicalize` folds on linalg and tensor IR that xDSL 0.74's
// canonicalization lacks; canonicalize-ext makes them (some go further).
// RUN: xdsl-opt %s -p canonicalize-ext | filecheck %s

// Unused results whose init is not read are dropped; the body's dead
// product goes with them.
// CHECK-LABEL: func.func @dead_generic_result
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK-NEXT:  } -> tensor<4xf32>
func.func @dead_generic_result(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e, %e : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.mulf %a, %b : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// An input given twice is read once.
// CHECK-LABEL: func.func @duplicate_inputs
// CHECK:       ins(%x : tensor<4xf32>)
// CHECK:       arith.mulf %[[A:.*]], %[[A]] : f32
func.func @duplicate_inputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A generic that copies its input is its input.
// CHECK-LABEL: func.func @identity_generic
// CHECK-NEXT:  func.return %x
func.func @identity_generic(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Cast chains, casts into a generic, dims of known extents, slices that are
// the whole tensor.
// CHECK-LABEL: func.func @casts_dims_slices
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[D:.*]] = tensor.dim %x, %[[C1]] : tensor<4x?xf32>
// CHECK:       %[[SUM:.*]] = arith.addi %[[D]], %[[C4]] : index
// CHECK:       %[[G:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x?xf32>) outs(%x : tensor<4x?xf32>)
// CHECK-NOT:   tensor.
// CHECK:       func.return %x, %[[SUM]], %x, %[[G]] : tensor<4x?xf32>, index, tensor<4x?xf32>, tensor<4x?xf32>
func.func @casts_dims_slices(%x: tensor<4x?xf32>) -> (tensor<4x?xf32>, index, tensor<4x?xf32>, tensor<4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = tensor.cast %x : tensor<4x?xf32> to tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<4x?xf32>
  %d = tensor.dim %0, %c1 : tensor<?x?xf32>
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  %sum = arith.addi %d, %d0 : index
  %s = tensor.extract_slice %x[0, 0] [4, %d] [1, 1] : tensor<4x?xf32> to tensor<4x?xf32>
  %i = tensor.insert_slice %s into %x[0, 0] [4, %d] [1, 1] : tensor<4x?xf32> into tensor<4x?xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<?x?xf32>
  %gc = tensor.cast %g : tensor<?x?xf32> to tensor<4x?xf32>
  return %1, %sum, %i, %gc : tensor<4x?xf32>, index, tensor<4x?xf32>, tensor<4x?xf32>
}

// Reads of a fill are its value; a fill of a fill, a reshape, a pad with
// the fill's value or a slice of a fill are one fill.
// CHECK-LABEL: func.func @fills
// CHECK-DAG:   %[[E6:.*]] = tensor.empty() : tensor<6xf32>
// CHECK-DAG:   %[[F6:.*]] = linalg.fill ins(%v : f32) outs(%[[E6]] : tensor<6xf32>)
// CHECK-DAG:   %[[E23:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-DAG:   %[[F23:.*]] = linalg.fill ins(%w : f32) outs(%[[E23]] : tensor<2x3xf32>)
// CHECK-DAG:   %[[E44:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK-DAG:   %[[F44:.*]] = linalg.fill ins(%v : f32) outs(%[[E44]] : tensor<4x5xf32>)
// CHECK-DAG:   %[[E2:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-DAG:   %[[F2:.*]] = linalg.fill ins(%v : f32) outs(%[[E2]] : tensor<2xf32>)
// CHECK:       func.return %v, %[[F23]], %[[F6]], %[[F44]], %[[F2]]
func.func @fills(%v: f32, %w: f32) -> (f32, tensor<2x3xf32>, tensor<6xf32>, tensor<4x5xf32>, tensor<2xf32>) {
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %x = tensor.extract %f[%c1, %c1] : tensor<2x3xf32>
  %g = linalg.fill ins(%w : f32) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = tensor.collapse_shape %f [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  %p = tensor.pad %f low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  %s = tensor.extract_slice %f[1, 0] [1, 2] [1, 1] : tensor<2x3xf32> to tensor<2xf32>
  return %x, %g, %c, %p, %s : f32, tensor<2x3xf32>, tensor<6xf32>, tensor<4x5xf32>, tensor<2xf32>
}

// Reshapes that undo each other, a collapse of a cast, a pad of nothing, an
// element of from_elements, copies of a value of the result type, and the
// index of a loop of extent 1.
// CHECK-LABEL: func.func @reshapes_pads_copies
// CHECK-NEXT:  %[[F:.*]] = linalg.fill ins(%v : f32) outs(%x : tensor<2x3xf32>)
// CHECK-NEXT:  linalg.generic
// CHECK-NEXT:  ^{{.*}}(%{{.*}}: index):
// CHECK-NEXT:    %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:    linalg.yield %[[J]] : index
// CHECK:       func.return %c, %x, %x, %v, %x, %[[F]], %{{.*}} :
func.func @reshapes_pads_copies(%c: tensor<6xf32>, %x: tensor<2x3xf32>, %v: f32, %w: f32, %n: tensor<1x3xindex>) -> (tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, f32, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xindex>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x1 = tensor.expand_shape %c [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  %x2 = tensor.cast %x1 : tensor<2x3xf32> to tensor<?x?xf32>
  %x3 = tensor.collapse_shape %x2 [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %x4 = tensor.cast %x3 : tensor<?xf32> to tensor<6xf32>
  %p = tensor.pad %x low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<2x3xf32>
  %t = tensor.from_elements %v, %w : tensor<2xf32>
  %first = tensor.extract %t[%c0] : tensor<2xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %copy = linalg.copy ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %f = linalg.fill ins(%v : f32) outs(%x : tensor<2x3xf32>) -> tensor<2x3xf32>
  %cf = linalg.copy ins(%f : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%n : tensor<1x3xindex>) {
  ^bb0(%o: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    linalg.yield %s : index
  } -> tensor<1x3xindex>
  return %x4, %p, %copy, %first, %x, %cf, %g : tensor<6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, f32, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xindex>
}
