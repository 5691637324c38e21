// The two cases ByteIR tests: a linalg.map (which upstream's pass of the
// time left alone) and a linalg.fill, both become linalg.generic.
// RUN: xdsl-opt %s -p linalg-generalization-ext | filecheck %s

// CHECK-LABEL: func.func @map
// CHECK-NOT:     linalg.map
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32, %{{.*}}: f32):
// CHECK-NEXT:      %s = arith.subf %x, %y : f32
// CHECK-NEXT:      linalg.yield %s : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @map(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.map ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>)
    (%x: f32, %y: f32, %o: f32) {
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    }
  return %r : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @fill
// CHECK-NOT:     linalg.fill
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : f32) outs(%e : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
func.func @fill(%v: f32) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.fill ins(%v : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
