// Elementwise ops of constants, named or generic, fold to their values as
// the interpreter computes them (bit for bit: NaN, -0.0, wrapping integers);
// a chain of them folds whole.
// RUN: xdsl-opt %s -p linalg-fold-constants-ext | filecheck %s

// CHECK-LABEL: func.func @add(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.500000e+00, -1.000000e+00, 5.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<3xf32>
func.func @add() -> tensor<3xf32> {
  %x = arith.constant dense<[0.5, -2.0, 3.0]> : tensor<3xf32>
  %y = arith.constant dense<[1.0, 1.0, 2.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.add ins(%x, %y : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// i8 multiplication wraps; the transpose, then the product, fold.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[0, 50], [56, -76]]> : tensor<2x2xi8>
// CHECK-NEXT:    func.return %[[C]] : tensor<2x2xi8>
func.func @chain() -> tensor<2x2xi8> {
  %x = arith.constant dense<[[0, 20], [10, 30]]> : tensor<2x2xi8>
  %y = arith.constant dense<[[7, 5], [-10, 6]]> : tensor<2x2xi8>
  %e = tensor.empty() : tensor<2x2xi8>
  %xt = linalg.transpose ins(%x : tensor<2x2xi8>) outs(%e : tensor<2x2xi8>) permutation = [1, 0]
  %r = linalg.mul ins(%xt, %y : tensor<2x2xi8>, tensor<2x2xi8>) outs(%e : tensor<2x2xi8>) -> tensor<2x2xi8>
  return %r : tensor<2x2xi8>
}

// A generic whose body uses a scalar constant defined outside it and
// linalg.index; its i1 result.
// CHECK-LABEL: func.func @compare(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[true, false, false]> : tensor<3xi1>
// CHECK-NEXT:    func.return %[[C]] : tensor<3xi1>
func.func @compare() -> tensor<3xi1> {
  %x = arith.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %lim = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xi1>) {
  ^bb0(%a: f32, %o: i1):
    %i = linalg.index 0 : index
    %positive = arith.cmpf ogt, %a, %zero : f32
    %low = arith.cmpi ult, %i, %lim : index
    %both = arith.andi %positive, %low : i1
    linalg.yield %both : i1
  } -> tensor<3xi1>
  return %r : tensor<3xi1>
}

// 0/0 is the NaN the hardware makes (the sign bit set on x86), kept as
// its bits; -1/0 is -inf.
// CHECK-LABEL: func.func @special_floats(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[0xfe00, 0xfc00]> : tensor<2xf16>
// CHECK-NEXT:    func.return %[[C]] : tensor<2xf16>
func.func @special_floats() -> tensor<2xf16> {
  %x = arith.constant dense<[0.0, -1.0]> : tensor<2xf16>
  %y = arith.constant dense<0.0> : tensor<2xf16>
  %e = tensor.empty() : tensor<2xf16>
  %r = linalg.div ins(%x, %y : tensor<2xf16>, tensor<2xf16>) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  return %r : tensor<2xf16>
}

// A reduction whose init is a filled constant.
// CHECK-LABEL: func.func @row_sums(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[6, 15]> : tensor<2xi32>
// CHECK-NEXT:    func.return %[[C]] : tensor<2xi32>
func.func @row_sums() -> tensor<2xi32> {
  %x = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<2xi32>) -> tensor<2xi32>
  %r = linalg.reduce ins(%x : tensor<2x3xi32>) outs(%f : tensor<2xi32>) dimensions = [1]
    (%a: i32, %b: i32) {
      %s = arith.addi %a, %b : i32
      linalg.yield %s : i32
    }
  return %r : tensor<2xi32>
}

// A scalar input and two results: one constant per result.
// CHECK-LABEL: func.func @two_results(
// CHECK-NEXT:    %[[F:.*]] = arith.constant dense<[3.000000e+00, -5.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[I:.*]] = arith.constant dense<[3, -5]> : tensor<2xi32>
// CHECK-NEXT:    func.return %[[F]], %[[I]] : tensor<2xf32>, tensor<2xi32>
func.func @two_results() -> (tensor<2xf32>, tensor<2xi32>) {
  %x = arith.constant dense<[1.5, -2.5]> : tensor<2xf32>
  %s = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %ei = tensor.empty() : tensor<2xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<2xf32>, f32) outs(%e, %ei : tensor<2xf32>, tensor<2xi32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %p: i32):
    %m = arith.mulf %a, %b : f32
    %i = arith.fptosi %m : f32 to i32
    linalg.yield %m, %i : f32, i32
  } -> (tensor<2xf32>, tensor<2xi32>)
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
}
