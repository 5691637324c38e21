// An unused result of a linalg.generic goes even when the body reads its
// init, if only the ops computing that result's yield read it (upstream's
// `--canonicalize` keeps such an output). torch-mlir's max reductions
// (softmax, ReduceMax) compute an argmax beside the max: with only the max
// used, the i64 output, its fill and the index / compare / select go.
// RUN: xdsl-opt %s -p canonicalize-ext | filecheck %s

// CHECK-LABEL: func.func @unused_argmax
// CHECK-NOT:   i64
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:    %[[M:.*]] = arith.maximumf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:    linalg.yield %[[M]] : f32
// CHECK-NEXT:  } -> tensor<4xf32>
// CHECK-NOT:   i64
// CHECK:       func.return
func.func @unused_argmax(%x: tensor<4x16xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%ff, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %ii, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0 : tensor<4xf32>
}

// With the argmax used, nothing goes.
// CHECK-LABEL: func.func @used_argmax
// CHECK:       outs(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xi64>)
// CHECK:       arith.select
// CHECK:       linalg.yield %{{.*}}, %{{.*}} : f32, i64
func.func @used_argmax(%x: tensor<4x16xf32>) -> tensor<4xi64> {
  %c0 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x16xf32>) outs(%ff, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %idx: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %gt, %ii, %idx : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// The unused result's init feeds the live result: it stays.
// CHECK-LABEL: func.func @init_feeds_live_result
// CHECK:       outs(%a, %b : tensor<4xf32>, tensor<4xf32>)
func.func @init_feeds_live_result(%x: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32, %p: f32):
    %s = arith.addf %in, %p : f32
    %t = arith.mulf %s, %o : f32
    linalg.yield %t, %s : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// Two unused results whose slices read each other's init both go; the
// value they share with the live result stays.
// CHECK-LABEL: func.func @crossed_slices
// CHECK:       outs(%a : tensor<4xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[N:.*]] = arith.negf %[[IN]] : f32
// CHECK-NEXT:    linalg.yield %[[N]] : f32
func.func @crossed_slices(%x: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r:3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32, %p: f32, %q: f32):
    %n = arith.negf %in : f32
    %u = arith.addf %n, %q : f32
    %v = arith.subf %p, %n : f32
    linalg.yield %n, %u, %v : f32, f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// Keeping one unused output keeps what its yield reads: the first unused
// result's init is read by the second's slice, whose init a live value
// reads; all three outputs stay.
// CHECK-LABEL: func.func @kept_slice_keeps_inits
// CHECK:       outs(%a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
func.func @kept_slice_keeps_inits(%x: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %r:3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32, %p: f32, %q: f32):
    %s = arith.addf %in, %q : f32
    %t = arith.mulf %in, %in : f32
    %u = arith.addf %in, %p : f32
    linalg.yield %s, %t, %u : f32, f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}

// An input read only by a dropped slice goes too.
// CHECK-LABEL: func.func @input_of_dead_slice
// CHECK:       ins(%x : tensor<4xf32>) outs(%a : tensor<4xf32>)
func.func @input_of_dead_slice(%x: tensor<4xf32>, %y: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%a, %b : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %in2: f32, %o: f32, %p: f32):
    %n = arith.negf %in : f32
    %m = arith.maximumf %in2, %p : f32
    linalg.yield %n, %m : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0 : tensor<4xf32>
}
