// Unit-extent loops and dimensions of linalg.generic on tensors dropped,
// operands collapsed and results expanded back (the default strategy).
// RUN: xdsl-opt %s -p linalg-fold-unit-extent-dims | filecheck %s
// RUN: xdsl-opt %s -p "linalg-fold-unit-extent-dims{use-rank-reducing-slices=false}" | filecheck %s

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// Leading and trailing unit dims join the one kept dim; the body reads the
// init, which is collapsed too.
// CHECK-LABEL: func.func @elementwise(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64, 2 : i64]] : tensor<1x3x1xf32> into tensor<3xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.collapse_shape %o {{\[}}[0 : i64, 1 : i64, 2 : i64]] : tensor<1x3x1xf32> into tensor<3xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<3xf32>) outs(%[[O]] : tensor<3xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0 : i64, 1 : i64, 2 : i64]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
// CHECK-NEXT:    func.return %[[E]] : tensor<1x3x1xf32>
func.func @elementwise(%x: tensor<1x3x1xf32>, %o: tensor<1x3x1xf32>) -> tensor<1x3x1xf32> {
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x3x1xf32>) outs(%o : tensor<1x3x1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x3x1xf32>
  return %r : tensor<1x3x1xf32>
}

// A reduction over a unit loop: what is left is parallel; the init keeps
// its type, so the result needs no reshape.
// CHECK-LABEL: func.func @reduce_unit(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<2x1xf32> into tensor<2xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<2xf32>) outs(%o : tensor<2xf32>)
// CHECK:         func.return %[[R]] : tensor<2xf32>
func.func @reduce_unit(%x: tensor<2x1xf32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x1xf32>) outs(%o : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// A dynamic dim next to unit ones: the dynamic extent of the expansion is
// read from the old init.
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<?x1x2xf32> into tensor<?x2xf32>
// CHECK-NEXT:    %[[O:.*]] = tensor.collapse_shape %o {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<?x1x2xf32> into tensor<?x2xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<?x2xf32>) outs(%[[O]] : tensor<?x2xf32>)
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = tensor.dim %o, %[[C0]] : tensor<?x1x2xf32>
// CHECK-NEXT:    %{{.*}} = tensor.expand_shape %[[R]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [%[[D]], 1, 2] : tensor<?x2xf32> into tensor<?x1x2xf32>
func.func @dynamic(%x: tensor<?x1x2xf32>, %o: tensor<?x1x2xf32>) -> tensor<?x1x2xf32> {
  %r = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<?x1x2xf32>) outs(%o : tensor<?x1x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x1x2xf32>
  return %r : tensor<?x1x2xf32>
}

// Every loop is a unit loop: a generic without loops on 0-d tensors.
// CHECK-LABEL: func.func @zero_d(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x [] : tensor<1x1xf32> into tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%[[X]] : tensor<f32>) outs(%o : tensor<f32>)
// CHECK:         func.return %[[R]] : tensor<f32>
func.func @zero_d(%x: tensor<1x1xf32>, %o: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<1x1xf32>) outs(%o : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Broadcast operands read a unit dim as the constant 0: those dims go too,
// though no loop is a unit loop.
// CHECK-LABEL: func.func @broadcast(
// CHECK:         %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<1x3xf32> into tensor<3xf32>
// CHECK-NEXT:    %[[Y:.*]] = tensor.collapse_shape %y {{\[}}[0 : i64, 1 : i64]] : tensor<2x1xf32> into tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]] : tensor<3xf32>, tensor<2xf32>) outs(%e : tensor<2x3xf32>)
func.func @broadcast(%x: tensor<1x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<1x3xf32>, tensor<2x1xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// Two generics in a row: the expansion of the first result and the
// collapse of the second operand cancel; an empty init is made anew,
// smaller; linalg.index of the unit loop is 0 (and `+ 0` is gone), of the
// other loop renumbered.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<1x3xindex> into tensor<3xindex>
// CHECK-NEXT:    %[[E1:.*]] = tensor.empty() : tensor<3xindex>
// CHECK-NEXT:    %[[A:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<3xindex>) outs(%[[E1]] : tensor<3xindex>)
// CHECK-NEXT:    ^{{.*}}(%[[P:.*]]: index, %{{.*}}: index):
// CHECK-NEXT:      %[[J:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[P]], %[[J]] : index
// CHECK-NEXT:      linalg.yield %[[T]] : index
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<3xindex>
// CHECK-NEXT:    %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<3xindex>) outs(%[[E2]] : tensor<3xindex>)
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[B]] {{\[}}[0 : i64, 1 : i64]] output_shape [1, 3] : tensor<3xindex> into tensor<1x3xindex>
// CHECK-NEXT:    func.return %[[R]] : tensor<1x3xindex>
func.func @chain(%x: tensor<1x3xindex>) -> tensor<1x3xindex> {
  %e = tensor.empty() : tensor<1x3xindex>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x3xindex>) outs(%e : tensor<1x3xindex>) {
  ^bb0(%p: index, %q: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %p, %i : index
    %t = arith.addi %s, %j : index
    linalg.yield %t : index
  } -> tensor<1x3xindex>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<1x3xindex>) outs(%e : tensor<1x3xindex>) {
  ^bb0(%p: index, %q: index):
    %s = arith.muli %p, %p : index
    linalg.yield %s : index
  } -> tensor<1x3xindex>
  return %b : tensor<1x3xindex>
}

// Left alone: a named op (upstream's pass also only rewrites generics) and
// a generic without unit dims.
// CHECK-LABEL: func.func @untouched(
// CHECK-NEXT:    %{{.*}} = linalg.add ins(%x, %x : tensor<1x3xf32>, tensor<1x3xf32>) outs(%x : tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%y : tensor<2xf32>) outs(%y : tensor<2xf32>)
func.func @untouched(%x: tensor<1x3xf32>, %y: tensor<2xf32>) -> (tensor<1x3xf32>, tensor<2xf32>) {
  %a = linalg.add ins(%x, %x : tensor<1x3xf32>, tensor<1x3xf32>) outs(%x : tensor<1x3xf32>) -> tensor<1x3xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%y : tensor<2xf32>) outs(%y : tensor<2xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %a, %b : tensor<1x3xf32>, tensor<2xf32>
}

// A filled init: the fill of a smaller empty tensor replaces the reshape of
// the fill (which is then dead and removed, with its empty tensor).
// CHECK-LABEL: func.func @filled(
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%[[X]] : tensor<4xf32>) outs(%[[F]] : tensor<f32>)
// CHECK:         %[[S:.*]] = tensor.expand_shape %[[R]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<1xf32>
func.func @filled(%x: tensor<1x4xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x4xf32>) outs(%f : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %r : tensor<1xf32>
}
