// A producer whose body reads its position (linalg.index) and widens an
// integer (arith.extsi) fuses like any other: MLIR declares both free of
// effects (xDSL 0.74's classes carry no trait saying so, which kept such
// producers out of the loops). The fused tile adds the tile's offset to
// the index.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=2}' | filecheck %s

func.func @index_producer(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %e = tensor.empty() : tensor<5x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<5x3xf32>) outs(%e : tensor<5x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %w = arith.extsi %ii : i32 to i64
    %f = arith.sitofp %w : i64 to f32
    %s = arith.addf %a, %f : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  %e2 = tensor.empty() : tensor<5x3xf32>
  %n = linalg.negf ins(%g : tensor<5x3xf32>) outs(%e2 : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %n : tensor<5x3xf32>
}

// CHECK-LABEL: func.func @index_producer
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[I:[a-z0-9_]+]] =
// CHECK:           linalg.generic
// CHECK:             %[[IDX:.*]] = linalg.index 0 : index
// CHECK:             affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[IDX]], %[[I]])
// CHECK:             arith.extsi
// CHECK:           linalg.negf
