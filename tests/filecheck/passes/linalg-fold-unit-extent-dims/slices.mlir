// With use-rank-reducing-slices=true: operands lose their unit dims by a
// rank-reducing tensor.extract_slice of the whole tensor, results are
// inserted back into the old init.
// RUN: xdsl-opt %s -p "linalg-fold-unit-extent-dims{use-rank-reducing-slices=true}" | filecheck %s

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT:    %[[X:.*]] = tensor.extract_slice %x[0, 0, 0] [1, 3, 1] [1, 1, 1] : tensor<1x3x1xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.extract_slice %o[0, 0, 0] [1, 3, 1] [1, 1, 1] : tensor<1x3x1xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<3xf32>) outs(%[[O]] : tensor<3xf32>)
// CHECK:         %[[I:.*]] = tensor.insert_slice %[[R]] into %o[0, 0, 0] [1, 3, 1] [1, 1, 1] : tensor<3xf32> into tensor<1x3x1xf32>
// CHECK-NEXT:    func.return %[[I]] : tensor<1x3x1xf32>
func.func @elementwise(%x: tensor<1x3x1xf32>, %o: tensor<1x3x1xf32>) -> tensor<1x3x1xf32> {
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x3x1xf32>) outs(%o : tensor<1x3x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x1xf32>
  return %r : tensor<1x3x1xf32>
}

// Dynamic sizes are read with tensor.dim (one constant, one dim per
// tensor, shared by the slice and the insertion).
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[DX:.*]] = tensor.dim %x, %[[C0]] : tensor<?x1xf32>
// CHECK-NEXT:    %[[X:.*]] = tensor.extract_slice %x[0, 0] [%[[DX]], 1] [1, 1] : tensor<?x1xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[DO:.*]] = tensor.dim %o, %[[C0]] : tensor<?x1xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.extract_slice %o[0, 0] [%[[DO]], 1] [1, 1] : tensor<?x1xf32> to tensor<?xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?xf32>) outs(%[[O]] : tensor<?xf32>)
// CHECK:         %{{.*}} = tensor.insert_slice %[[R]] into %o[0, 0] [%[[DO]], 1] [1, 1] : tensor<?xf32> into tensor<?x1xf32>
func.func @dynamic(%x: tensor<?x1xf32>, %o: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x1xf32>) outs(%o : tensor<?x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// A reduction over unit loops into a 1-element tensor: a reduction over the
// kept loop into a 0-d slice.
// CHECK-LABEL: func.func @reduce_to_zero_d(
// CHECK-NEXT:    %[[X:.*]] = tensor.extract_slice %x[0, 0, 0] [1, 4, 1] [1, 1, 1] : tensor<1x4x1xf32> to tensor<4xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.extract_slice %o[0] [1] [1] : tensor<1xf32> to tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[X]] : tensor<4xf32>) outs(%[[O]] : tensor<f32>)
// CHECK:         %{{.*}} = tensor.insert_slice %[[R]] into %o[0] [1] [1] : tensor<f32> into tensor<1xf32>
func.func @reduce_to_zero_d(%x: tensor<1x4x1xf32>, %o: tensor<1xf32>) -> tensor<1xf32> {
  %r = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x4x1xf32>) outs(%o : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// Two generics in a row: the second reads the first's result directly
// (the slice of what was just inserted); the empty inits are made anew.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x3xf32>
// CHECK-NEXT:    %[[X:.*]] = tensor.extract_slice %x[0, 0] [1, 3] [1, 1] : tensor<1x3xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:    %[[A:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<3xf32>) outs(%[[E1]] : tensor<3xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<3xf32>
// CHECK-NEXT:    %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<3xf32>) outs(%[[E2]] : tensor<3xf32>)
// CHECK:         %[[R:.*]] = tensor.insert_slice %[[B]] into %[[E]][0, 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<1x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x3xf32>
func.func @chain(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x3xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.mulf %p, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  return %b : tensor<1x3xf32>
}
