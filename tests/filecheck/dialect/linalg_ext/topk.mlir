// Round trip of topk: with and without input indices, tensor and memref.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @top4_with_indices
func.func @top4_with_indices(%v: tensor<12x50xf32>, %i: tensor<12x50xi64>) -> (tensor<12x4xf32>, tensor<12x4xi64>) {
  %ov = tensor.empty() : tensor<12x4xf32>
  %oi = tensor.empty() : tensor<12x4xi64>
  %r:2 = linalg_ext.topk
      dimension(1)
      ins(%v, %i : tensor<12x50xf32> , tensor<12x50xi64>)
      outs(%ov, %oi : tensor<12x4xf32>, tensor<12x4xi64>) {
      ^bb0(%a: f32, %b: f32):
        %first = arith.cmpf ogt, %a, %b : f32
        linalg_ext.yield %first : i1
      } -> tensor<12x4xf32>, tensor<12x4xi64>
  return %r#0, %r#1 : tensor<12x4xf32>, tensor<12x4xi64>
}
// CHECK:      %{{.*}}, %{{.*}} = linalg_ext.topk dimension(1) ins(%v, %i : tensor<12x50xf32>, tensor<12x50xi64>) outs(%ov, %oi : tensor<12x4xf32>, tensor<12x4xi64>) {
// CHECK-NEXT: ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:   %first = arith.cmpf ogt, %a, %b : f32
// CHECK-NEXT:   linalg_ext.yield %first : i1
// CHECK-NEXT: } -> tensor<12x4xf32>, tensor<12x4xi64>

// Smallest three along dimension 0, positions generated (no input indices).
// CHECK-LABEL: func.func @bottom3_positions
func.func @bottom3_positions(%v: tensor<20x2xi32>, %ov: tensor<3x2xi32>, %oi: tensor<3x2xi32>) -> tensor<3x2xi32> {
  %r:2 = linalg_ext.topk dimension(0) ins(%v : tensor<20x2xi32>) outs(%ov, %oi : tensor<3x2xi32>, tensor<3x2xi32>) {
  ^bb0(%a: i32, %b: i32):
    %first = arith.cmpi slt, %a, %b : i32
    linalg_ext.yield %first : i1
  } -> tensor<3x2xi32>, tensor<3x2xi32>
  return %r#1 : tensor<3x2xi32>
}
// CHECK:      %{{.*}}, %{{.*}} = linalg_ext.topk dimension(0) ins(%v : tensor<20x2xi32>) outs(%ov, %oi : tensor<3x2xi32>, tensor<3x2xi32>) {
// CHECK-NEXT: ^bb0(%a: i32, %b: i32):
// CHECK-NEXT:   %first = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:   linalg_ext.yield %first : i1
// CHECK-NEXT: } -> tensor<3x2xi32>, tensor<3x2xi32>

// CHECK-LABEL: func.func @topk_dynamic
func.func @topk_dynamic(%v: tensor<?x?xf32>, %i: tensor<?x?xi32>, %ov: tensor<?x?xf32>, %oi: tensor<?x?xi32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i : tensor<?x?xf32>, tensor<?x?xi32>) outs(%ov, %oi : tensor<?x?xf32>, tensor<?x?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  } -> tensor<?x?xf32>, tensor<?x?xi32>
  return %r#0, %r#1 : tensor<?x?xf32>, tensor<?x?xi32>
}
// CHECK: linalg_ext.topk dimension(1) ins(%v, %i : tensor<?x?xf32>, tensor<?x?xi32>) outs(%ov, %oi : tensor<?x?xf32>, tensor<?x?xi32>) {
// CHECK: } -> tensor<?x?xf32>, tensor<?x?xi32>

// CHECK-LABEL: func.func @topk_memref
func.func @topk_memref(%v: memref<7x30xf64>, %i: memref<7x30xindex>, %ov: memref<7x5xf64>, %oi: memref<7x5xindex>) {
  linalg_ext.topk
    dimension(1)
    ins(%v, %i : memref<7x30xf64>, memref<7x30xindex>)
    outs(%ov, %oi : memref<7x5xf64>, memref<7x5xindex>) {
    ^bb0(%a: f64, %b: f64):
      %first = arith.cmpf olt, %a, %b : f64
      linalg_ext.yield %first : i1
    }
  return
}
// CHECK:      linalg_ext.topk dimension(1) ins(%v, %i : memref<7x30xf64>, memref<7x30xindex>) outs(%ov, %oi : memref<7x5xf64>, memref<7x5xindex>) {
// CHECK-NEXT: ^bb0(%a: f64, %b: f64):
// CHECK-NEXT:   %first = arith.cmpf olt, %a, %b : f64
// CHECK-NEXT:   linalg_ext.yield %first : i1
// CHECK-NEXT: }
// CHECK-NEXT: func.return
