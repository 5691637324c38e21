// Data movement, reductions, contractions and convolutions, on tensors and
// memrefs: each becomes a generic with the op's maps and iterator types.
// RUN: xdsl-opt %s -p linalg-generalization-ext | filecheck %s

// CHECK-LABEL: func.func @data_movement
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) {
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%b : tensor<2x2x3xf32>) {
// CHECK:         linalg.generic {{.*}} ins(%x : tensor<2x3xf32>) outs(%c : tensor<2x3xf64>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f64):
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK-NEXT:      linalg.yield %[[E]] : f64
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%r : tensor<3xf32>) {
// CHECK-NOT:     linalg.{{transpose|broadcast|copy|reduce}}
func.func @data_movement(%x: tensor<2x3xf32>, %t: tensor<3x2xf32>, %b: tensor<2x2x3xf32>, %c: tensor<2x3xf64>, %r: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2x3xf64>, tensor<3xf32>) {
  %0 = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
  %1 = linalg.broadcast ins(%x : tensor<2x3xf32>) outs(%b : tensor<2x2x3xf32>) dimensions = [0]
  %2 = linalg.copy ins(%x : tensor<2x3xf32>) outs(%c : tensor<2x3xf64>) -> tensor<2x3xf64>
  %3 = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%r : tensor<3xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %0, %1, %2, %3 : tensor<3x2xf32>, tensor<2x2x3xf32>, tensor<2x3xf64>, tensor<3xf32>
}

// A matmul widening i8 to i32: both factors are converted first.
// CHECK-LABEL: func.func @contractions
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%c : tensor<2x2xi32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[C:.*]]: i32):
// CHECK-NEXT:      %[[AW:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:      %[[BW:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[AW]], %[[BW]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[C]], %[[P]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : memref<2x2x3xf32>, memref<2x3x2xf32>) outs(%z : memref<2x2x2xf32>) {
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%img, %ker : memref<1x3x3x2xf32>, memref<2x2x2x2xf32>) outs(%conv : memref<1x2x2x2xf32>) {
// CHECK-NOT:     linalg.{{matmul|batch_matmul|conv}}
func.func @contractions(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %c: tensor<2x2xi32>, %x: memref<2x2x3xf32>, %y: memref<2x3x2xf32>, %z: memref<2x2x2xf32>, %img: memref<1x3x3x2xf32>, %ker: memref<2x2x2x2xf32>, %conv: memref<1x2x2x2xf32>) -> tensor<2x2xi32> {
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xi8>, tensor<3x2xi8>) outs(%c : tensor<2x2xi32>) -> tensor<2x2xi32>
  linalg.batch_matmul ins(%x, %y : memref<2x2x3xf32>, memref<2x3x2xf32>) outs(%z : memref<2x2x2xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%img, %ker : memref<1x3x3x2xf32>, memref<2x2x2x2xf32>) outs(%conv : memref<1x2x2x2xf32>)
  return %0 : tensor<2x2xi32>
}
