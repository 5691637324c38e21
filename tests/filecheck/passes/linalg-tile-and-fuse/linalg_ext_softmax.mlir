// A linalg_ext op as root: linalg_ext.softmax along dimension 1, fed by an
// elementwise generic. Tiled by rows (`tile-sizes=4`, partial last tile), the
// generic is computed per row panel inside the loop and every output of the
// softmax (the result, max, sum and scale) is written back at its own rank.
// Its `dimension` must stay whole: `tile-sizes=4,4` leaves the IR as it is
// (`report=true` says why).
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,4}' | filecheck %s --check-prefix=WHOLE

// CHECK-LABEL: func.func @exp_softmax
// WHOLE-LABEL: func.func @exp_softmax
func.func @exp_softmax(%x: tensor<6x8xf32>, %m0: tensor<6xf32>, %a0: tensor<6xf32>) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<6x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<6x8xf32>
  %scale = tensor.empty() : tensor<6xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%exp : tensor<6x8xf32>)
      outs(%e, %m0, %a0, %scale : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
      : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return %r#0 : tensor<6x8xf32>
}
// CHECK:          %e = tensor.empty() : tensor<6x8xf32>
// CHECK-NEXT:     %scale = tensor.empty() : tensor<6xf32>
// CHECK:          %r, %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %e, %[[M:.*]] = %m0, %[[A:.*]] = %a0, %[[S:.*]] = %scale)
// CHECK-NEXT:       %[[N:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[N]], 8] [1, 1] : tensor<6x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK-NEXT:       %[[G:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x8xf32>) outs(%[[E]] : tensor<?x8xf32>) {
// CHECK:            } -> tensor<?x8xf32>
// CHECK-NEXT:       %[[OT:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [%[[N]], 8] [1, 1] : tensor<6x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:       %[[MT:.*]] = tensor.extract_slice %[[M]][%[[I]]] [%[[N]]] [1] : tensor<6xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[AT:.*]] = tensor.extract_slice %[[A]][%[[I]]] [%[[N]]] [1] : tensor<6xf32> to tensor<?xf32>
// CHECK-NEXT:       %[[ST:.*]] = tensor.extract_slice %[[S]][%[[I]]] [%[[N]]] [1] : tensor<6xf32> to tensor<?xf32>
// CHECK-NEXT:       linalg_ext.softmax dimension(1) ins(%[[G]] : tensor<?x8xf32>) outs(%[[OT]], %[[MT]], %[[AT]], %[[ST]] : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
// WHOLE:          %exp = linalg.generic
// WHOLE:          %r, %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%exp : tensor<6x8xf32>)
// WHOLE-NOT:      scf.for
