// allow-recompute=true gives upstream's form: the producer is cloned into the
// interior and the original stays for its other users (here, the sizes).
// RUN: xdsl-opt %s -p "fuse-pad{allow-recompute=true}" | filecheck %s

// CHECK-LABEL: func.func @recompute
func.func @recompute(%x: tensor<?x8xf32>, %v: f32) -> (tensor<?x10xf32>, tensor<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<?x8xf32>
  %p = tensor.pad %r low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x8xf32> to tensor<?x10xf32>
  return %p, %r : tensor<?x10xf32>, tensor<?x8xf32>
}
// CHECK:      %r = linalg.generic {{.*}} outs(%e : tensor<?x8xf32>)
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = tensor.dim %r, %[[C0]] : tensor<?x8xf32>
// CHECK:      %[[S:.*]] = tensor.extract_slice %{{.*}}[0, 1] [%[[D]], 8] [1, 1] : tensor<?x10xf32> to tensor<?x8xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<?x8xf32>)
// CHECK:      %[[P:.*]] = tensor.insert_slice %[[G]]
// CHECK-NEXT: func.return %[[P]], %r : tensor<?x10xf32>, tensor<?x8xf32>
