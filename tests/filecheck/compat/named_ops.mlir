// Round trip of the named Linalg ops the compat layer adds: batch_matmul
// (default and user-given indexing maps) and the elementwise ops xDSL lacks.
// Attributes go in front of ins, as MLIR prints them. The GENERIC checks pin
// the hidden bodies, built op for op as MLIR 22 builds them.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @batch_matmul
// GENERIC-LABEL: sym_name = "batch_matmul"
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>, %m: memref<2x3x4xf32>, %n: memref<2x4x5xf32>, %o: memref<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %tagged = linalg.batch_matmul {__root__} ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  linalg.batch_matmul ins(%m, %n : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%o : memref<2x3x5xf32>)
  return %r : tensor<2x3x5xf32>
}
// CHECK-NEXT: %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %tagged = linalg.batch_matmul {__root__} ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: linalg.batch_matmul ins(%m, %n : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%o : memref<2x3x5xf32>)
// CHECK-NEXT: func.return %r : tensor<2x3x5xf32>
// GENERIC:      %r = "linalg.batch_matmul"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], operandSegmentSizes = array<i32: 2, 1>}> ({
// GENERIC-NEXT: ^bb0(%[[A:[0-9]+]]: f32, %[[B:[0-9]+]]: f32, %[[C:[0-9]+]]: f32):
// GENERIC-NEXT:   %[[P:[0-9]+]] = "arith.mulf"(%[[A]], %[[B]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   %[[S:[0-9]+]] = "arith.addf"(%[[C]], %[[P]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   "linalg.yield"(%[[S]]) : (f32) -> ()
// GENERIC-NEXT: }) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>

// Inputs of another element type are converted to the init's first.
// CHECK-LABEL: func.func @batch_matmul_casts
// GENERIC-LABEL: sym_name = "batch_matmul_casts"
func.func @batch_matmul_casts(%a: tensor<2x3x4xi8>, %b: tensor<2x4x5xi8>, %c: tensor<2x3x5xi32>, %h: tensor<2x3x4xf16>, %g: tensor<2x4x5xf16>, %f: tensor<2x3x5xf32>) -> (tensor<2x3x5xi32>, tensor<2x3x5xf32>) {
  %i = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xi8>, tensor<2x4x5xi8>) outs(%c : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  %x = linalg.batch_matmul ins(%h, %g : tensor<2x3x4xf16>, tensor<2x4x5xf16>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %i, %x : tensor<2x3x5xi32>, tensor<2x3x5xf32>
}
// CHECK-NEXT: %i = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xi8>, tensor<2x4x5xi8>) outs(%c : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
// CHECK-NEXT: %x = linalg.batch_matmul ins(%h, %g : tensor<2x3x4xf16>, tensor<2x4x5xf16>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// GENERIC:      ^bb0(%[[A:[0-9]+]]: i8, %[[B:[0-9]+]]: i8, %[[C:[0-9]+]]: i32):
// GENERIC-NEXT:   %[[AI:[0-9]+]] = "arith.extsi"(%[[A]]) : (i8) -> i32
// GENERIC-NEXT:   %[[BI:[0-9]+]] = "arith.extsi"(%[[B]]) : (i8) -> i32
// GENERIC-NEXT:   %[[P:[0-9]+]] = "arith.muli"(%[[AI]], %[[BI]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:   %{{[0-9]+}} = "arith.addi"(%[[C]], %[[P]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC:      ^bb0(%[[H:[0-9]+]]: f16, %[[G:[0-9]+]]: f16, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   %{{[0-9]+}} = "arith.extf"(%[[H]]) : (f16) -> f32
// GENERIC-NEXT:   %{{[0-9]+}} = "arith.extf"(%[[G]]) : (f16) -> f32

// Maps other than the default are printed, in front of the attributes.
// CHECK-LABEL: func.func @batch_matmul_maps
func.func @batch_matmul_maps(%at: tensor<2x4x3xf32>, %shared: tensor<3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %t = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] {tag} ins(%at, %b : tensor<2x4x3xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%shared, %b : tensor<3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %t, %s : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}
// CHECK-NEXT: %t = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] {tag} ins(%at, %b : tensor<2x4x3xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT: %s = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%shared, %b : tensor<3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>

// CHECK-LABEL: func.func @elementwise
// GENERIC-LABEL: sym_name = "elementwise"
func.func @elementwise(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<8xi32>, %m: memref<4x2xf16>) -> tensor<8xf32> {
  %div = linalg.div ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %idiv = linalg.div ins(%i, %i : tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
  %neg = linalg.negf {__root__} ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %abs = linalg.abs ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %floor = linalg.floor ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %ceil = linalg.ceil ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %tanh = linalg.tanh ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %rsqrt = linalg.rsqrt ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %rcp = linalg.reciprocal ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %sq = linalg.square ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  %pow = linalg.powf ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  linalg.square ins(%m : memref<4x2xf16>) outs(%m : memref<4x2xf16>)
  return %div : tensor<8xf32>
}
// CHECK-NEXT: %div = linalg.div ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %idiv = linalg.div ins(%i, %i : tensor<8xi32>, tensor<8xi32>) outs(%i : tensor<8xi32>) -> tensor<8xi32>
// CHECK-NEXT: %neg = linalg.negf {__root__} ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %abs = linalg.abs ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %floor = linalg.floor ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %ceil = linalg.ceil ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %tanh = linalg.tanh ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %rsqrt = linalg.rsqrt ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %rcp = linalg.reciprocal ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %sq = linalg.square ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %pow = linalg.powf ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: linalg.square ins(%m : memref<4x2xf16>) outs(%m : memref<4x2xf16>)
// CHECK-NEXT: func.return %div : tensor<8xf32>
// GENERIC:      "arith.divf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC:      "arith.divsi"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// GENERIC:      "linalg.negf"(%x, %y) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:      }) {__root__} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// GENERIC:      "math.absf"
// GENERIC:      "math.floor"
// GENERIC:      "math.ceil"
// GENERIC:      "math.tanh"
// GENERIC:      "math.rsqrt"
// GENERIC:      %[[ONE:.*]] = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT: "arith.divf"(%[[ONE]], %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC:      ^bb{{.*}}(%[[X:[^:]*]]: f32, %{{.*}}: f32):
// GENERIC-NEXT: "arith.mulf"(%[[X]], %[[X]])
// GENERIC:      "math.powf"
