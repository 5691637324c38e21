// A producer whose body reads `linalg.index` (or casts with `arith.extsi`)
// is fused like any other: it has no effect but its result (xDSL 0.74's
// classes lacked upstream's `Pure`, so producer fusion refused every such
// generic, linalg_ext/compat/pure_traits.py; found by
// fuzzing transform scripts over the tiling family, seed 2077). Its tile
// reads the index shifted by the tile's offset; the untiled original, left
// unused, is erased.
// RUN: linalg-ext-opt %s -p test-linalg-greedy-fusion | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @indexed_producer(%x: tensor<7x4xf32>) -> tensor<7x4xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<7x4xf32>
  %rows = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<7x4xf32>) outs(%e : tensor<7x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %w = arith.index_cast %k : index to i64
    %f = arith.sitofp %w : i64 to f32
    %r = arith.addf %a, %f : f32
    linalg.yield %r : f32
  } -> tensor<7x4xf32>
  %out = scf.for %iv = %c0 to %c7 step %c3 iter_args(%acc = %e) -> (tensor<7x4xf32>) {
    %size = affine.min affine_map<(d0) -> (7 - d0, 3)>(%iv)
    %s = tensor.extract_slice %rows[%iv, 0] [%size, 4] [1, 1] : tensor<7x4xf32> to tensor<?x4xf32>
    %d = tensor.extract_slice %acc[%iv, 0] [%size, 4] [1, 1] : tensor<7x4xf32> to tensor<?x4xf32>
    %t = linalg.exp ins(%s : tensor<?x4xf32>) outs(%d : tensor<?x4xf32>) -> tensor<?x4xf32>
    %u = tensor.insert_slice %t into %acc[%iv, 0] [%size, 4] [1, 1] : tensor<?x4xf32> into tensor<7x4xf32>
    scf.yield %u : tensor<7x4xf32>
  }
  return %out : tensor<7x4xf32>
}

// CHECK-LABEL: func.func @indexed_producer
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK:           %[[X:.*]] = tensor.extract_slice %x[%[[IV]], 0] [%{{.*}}, 4] [1, 1]
// CHECK:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x4xf32>)
// CHECK:             %[[I:.*]] = linalg.index 0 : index
// CHECK:             %[[I_SHIFTED:.*]] = affine.apply {{.*}}(%[[I]], %[[IV]])
// CHECK:             %[[J:.*]] = linalg.index 1 : index
// CHECK:             arith.muli %[[I_SHIFTED]], %[[J]] : index
// CHECK:           linalg.exp ins(%[[T]] : tensor<?x4xf32>)
// CHECK:         return

// `arith.extsi` (also without its `Pure` in xDSL 0.74) in a producer's body.
func.func @extsi_producer(%x: tensor<7xi32>) -> tensor<7xf32> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<7xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<7xi32>) outs(%e : tensor<7xf32>) {
  ^bb0(%a: i32, %o: f32):
    %w = arith.extsi %a : i32 to i64
    %f = arith.sitofp %w : i64 to f32
    linalg.yield %f : f32
  } -> tensor<7xf32>
  %out = scf.for %iv = %c0 to %c7 step %c3 iter_args(%acc = %e) -> (tensor<7xf32>) {
    %size = affine.min affine_map<(d0) -> (7 - d0, 3)>(%iv)
    %s = tensor.extract_slice %wide[%iv] [%size] [1] : tensor<7xf32> to tensor<?xf32>
    %d = tensor.extract_slice %acc[%iv] [%size] [1] : tensor<7xf32> to tensor<?xf32>
    %t = linalg.negf ins(%s : tensor<?xf32>) outs(%d : tensor<?xf32>) -> tensor<?xf32>
    %u = tensor.insert_slice %t into %acc[%iv] [%size] [1] : tensor<?xf32> into tensor<7xf32>
    scf.yield %u : tensor<7xf32>
  }
  return %out : tensor<7xf32>
}

// CHECK-LABEL: func.func @extsi_producer
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[IV:[a-z0-9_]+]] =
// CHECK:           %[[X:.*]] = tensor.extract_slice %x[%[[IV]]] [%{{.*}}] [1]
// CHECK:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?xi32>)
// CHECK:             arith.extsi
// CHECK:           linalg.negf ins(%[[T]] : tensor<?xf32>)
// CHECK:         return
