// ByteIR's script form: a top-level transform.sequence with !pdl.operation
// handles, the root found by its unit attribute, transform.structured.fuse
// with its sizes in the attribute dictionary (the older form). Tiling the
// product 4x5, loops interchanged (columns outside), computes the sum that
// feeds it tile by tile inside the loops; the script is erased after.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(i, j) -> (i, j)>
// CHECK-LABEL: func.func @chain
func.func @chain(%a: tensor<10x12xf32>, %b: tensor<10x12xf32>) -> tensor<10x12xf32> {
  %e0 = tensor.empty() : tensor<10x12xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<10x12xf32>, tensor<10x12xf32>) outs(%e0 : tensor<10x12xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<10x12xf32>
  %e1 = tensor.empty() : tensor<10x12xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%sum, %a : tensor<10x12xf32>, tensor<10x12xf32>) outs(%e1 : tensor<10x12xf32>) attrs = {__root__} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<10x12xf32>
  return %sq : tensor<10x12xf32>
// CHECK-NOT:  linalg.generic
// CHECK:      %sq = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC0:.*]] = %e1) -> (tensor<10x12xf32>) {
// CHECK-NEXT:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<10x12xf32>) {
// CHECK-NEXT:     %[[W:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 5)> (%[[J]])
// CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 10), 4)> (%[[I]])
// CHECK-NEXT:     %[[A:.*]] = tensor.extract_slice %a[%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:     %[[B:.*]] = tensor.extract_slice %b[%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:     %[[E:.*]] = tensor.extract_slice %e0[%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:     %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>)
// CHECK:          arith.addf
// CHECK:          %[[A2:.*]] = tensor.extract_slice %a[%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:     %[[O:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:     %[[P:.*]] = linalg.generic {{.*}} ins(%[[SUM]], %[[A2]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[O]] : tensor<?x?xf32>) attrs = {__root__}
// CHECK:          arith.mulf
// CHECK:          tensor.insert_slice %[[P]] into %[[ACC]][%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NOT:  transform.
}

transform.sequence failures(propagate) {
^bb1(%arg1: !pdl.operation):
  %0 = transform.structured.match attributes {__root__} in %arg1 : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse %0 {tile_sizes = [4, 5], tile_interchange = [1, 0]} :
    (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
}
