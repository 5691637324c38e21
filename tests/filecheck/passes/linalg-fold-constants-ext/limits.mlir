// What is left alone: results or constants larger than max-elements, ops
// with an operand not known at compile time, ops whose result depends on
// the undefined elements of their init, dense_resource constants, and
// linalg.fill itself.
// RUN: xdsl-opt %s -p "linalg-fold-constants-ext{max-elements=4}" | filecheck %s --check-prefixes=CHECK,SMALL
// RUN: xdsl-opt %s -p linalg-fold-constants-ext | filecheck %s --check-prefixes=CHECK,DEFAULT

// Six elements: folded by default, not with max-elements=4.
// CHECK-LABEL: func.func @six(
// SMALL:         linalg.transpose
// DEFAULT-NEXT:  %[[C:.*]] = arith.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
// DEFAULT-NEXT:  func.return %[[C]] : tensor<3x2xi64>
func.func @six() -> tensor<3x2xi64> {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %e = tensor.empty() : tensor<3x2xi64>
  %t = linalg.transpose ins(%c : tensor<2x3xi64>) outs(%e : tensor<3x2xi64>) permutation = [1, 0]
  return %t : tensor<3x2xi64>
}

// An argument among the inputs.
// CHECK-LABEL: func.func @argument(
// CHECK:         linalg.sub
func.func @argument(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.sub ins(%c, %x : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// A matmul accumulates into its init, here an argument: its value is not
// known.
// CHECK-LABEL: func.func @accumulates(
// CHECK:         linalg.matmul
func.func @accumulates(%acc: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %a = arith.constant dense<1.0> : tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %a : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// The bytes of a dense_resource constant are not in the IR's attributes:
// not folded (the op still runs on them).
// CHECK-LABEL: func.func @resource(
// CHECK:         linalg.exp
func.func @resource() -> tensor<2xf32> {
  %a = arith.constant dense_resource<weights> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.exp ins(%a : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// A fill has no tensor input: it stays a fill.
// CHECK-LABEL: func.func @fill(
// CHECK:         linalg.fill
func.func @fill() -> tensor<2xf32> {
  %z = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %f : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}

// A broadcast that makes a constant larger than the one it reads (over 1024
// elements, not a splat) is left alone at any limit: a copy of the folded
// constant would cost as much at run time, and more at compile time. The
// same broadcast to 1024 elements, and a broadcast of a splat, fold (by
// default).
// CHECK-LABEL: func.func @grows(
// CHECK:         linalg.broadcast
// CHECK-LABEL: func.func @grows_little(
// SMALL:         linalg.broadcast
// DEFAULT-NEXT:  %{{.*}} = arith.constant dense<"0x0000803F0000004000004040000080400000803F{{.*}}"> : tensor<256x4xf32>
// DEFAULT-NOT:   linalg.broadcast
// CHECK-LABEL: func.func @splat(
// SMALL:         linalg.broadcast
// DEFAULT-NEXT:  %{{.*}} = arith.constant dense<2.500000e+00> : tensor<1025x4xf32>
// DEFAULT-NEXT:  func.return
func.func @grows() -> tensor<1025x4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1025x4xf32>
  %b = linalg.broadcast ins(%c : tensor<4xf32>) outs(%e : tensor<1025x4xf32>) dimensions = [0]
  return %b : tensor<1025x4xf32>
}

func.func @grows_little() -> tensor<256x4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<256x4xf32>
  %b = linalg.broadcast ins(%c : tensor<4xf32>) outs(%e : tensor<256x4xf32>) dimensions = [0]
  return %b : tensor<256x4xf32>
}

func.func @splat() -> tensor<1025x4xf32> {
  %c = arith.constant dense<2.5> : tensor<4xf32>
  %e = tensor.empty() : tensor<1025x4xf32>
  %b = linalg.broadcast ins(%c : tensor<4xf32>) outs(%e : tensor<1025x4xf32>) dimensions = [0]
  return %b : tensor<1025x4xf32>
}
