// Upstream's OpDSL contractions xDSL 0.74 lacks (linalg_ext/compat/linalg_opdsl.py):
// round trip (custom and generic form), and linalg-generalization-ext, whose
// maps and bodies are upstream's (tests/unit/test_opdsl_ops.py compares them
// with mlir-opt-22's on every op of the table).
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s -p linalg-generalization-ext | filecheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @contractions
// GEN-LABEL: func.func @contractions
func.func @contractions(%a: tensor<3x4xf32>, %v: tensor<4xf32>, %w: tensor<3xf32>, %s: tensor<f32>, %ba: tensor<2x3x4xi8>, %bb: tensor<2x4x5xi8>, %c: tensor<3x5xi32>, %z: i32, %q: memref<2x3x5xi32>, %qa: memref<2x3x4xi8>, %qb: memref<2x4x5xi8>) -> (tensor<3xf32>, tensor<4xf32>, tensor<f32>, tensor<3x5xi32>) {
  %0 = linalg.matvec ins(%a, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%w : tensor<3xf32>) -> tensor<3xf32>
  %1 = linalg.vecmat {tag} ins(%w, %a : tensor<3xf32>, tensor<3x4xf32>) outs(%v : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.dot ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  %3 = linalg.batch_reduce_matmul ins(%ba, %bb : tensor<2x3x4xi8>, tensor<2x4x5xi8>) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
  linalg.quantized_batch_matmul ins(%qa, %qb, %z, %z : memref<2x3x4xi8>, memref<2x4x5xi8>, i32, i32) outs(%q : memref<2x3x5xi32>)
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<4xf32>, tensor<f32>, tensor<3x5xi32>
}
// CHECK-NEXT: %0 = linalg.matvec ins(%a, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%w : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %1 = linalg.vecmat {tag} ins(%w, %a : tensor<3xf32>, tensor<3x4xf32>) outs(%v : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %2 = linalg.dot ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%s : tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %3 = linalg.batch_reduce_matmul ins(%ba, %bb : tensor<2x3x4xi8>, tensor<2x4x5xi8>) outs(%c : tensor<3x5xi32>) -> tensor<3x5xi32>
// CHECK-NEXT: linalg.quantized_batch_matmul ins(%qa, %qb, %z, %z : memref<2x3x4xi8>, memref<2x4x5xi8>, i32, i32) outs(%q : memref<2x3x5xi32>)

// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// GEN-SAME: {tag}
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel", "reduction"]}
// GEN-NEXT: ^{{.*}}(%{{.*}}: i8, %{{.*}}: i8, %[[OUT:.*]]: i32):
// GEN-NEXT:   %[[A:.*]] = arith.extsi %{{.*}} : i8 to i32
// GEN-NEXT:   %[[B:.*]] = arith.extsi %{{.*}} : i8 to i32
// GEN-NEXT:   %[[M:.*]] = arith.muli %[[A]], %[[B]] : i32
// GEN-NEXT:   %[[S:.*]] = arith.addi %[[OUT]], %[[M]] : i32
// GEN-NEXT:   linalg.yield %[[S]] : i32
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[I:.*]]: i8, %[[K:.*]]: i8, %[[IZ:.*]]: i32, %[[KZ:.*]]: i32, %[[O:.*]]: i32):
// GEN-NEXT:   %[[IC:.*]] = arith.extsi %[[I]] : i8 to i32
// GEN-NEXT:   %[[IS:.*]] = arith.subi %[[IC]], %[[IZ]] : i32
// GEN-NEXT:   %[[KC:.*]] = arith.extsi %[[K]] : i8 to i32
// GEN-NEXT:   %[[KS:.*]] = arith.subi %[[KC]], %[[KZ]] : i32
// GEN-NEXT:   %[[P:.*]] = arith.muli %[[IS]], %[[KS]] : i32
// GEN-NEXT:   %[[R:.*]] = arith.addi %[[O]], %[[P]] : i32
// GEN-NEXT:   linalg.yield %[[R]] : i32

// A transposed lhs (upstream's `indexing_maps`), printed back as given.
// CHECK-LABEL: func.func @batch_reduce_matmul_transposed
// GEN-LABEL: func.func @batch_reduce_matmul_transposed
func.func @batch_reduce_matmul_transposed(%a: tensor<2x4x3xf32>, %b: tensor<2x4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = linalg.batch_reduce_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (m, n)>] ins(%a, %b : tensor<2x4x3xf32>, tensor<2x4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
// CHECK-NEXT: %0 = linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>] ins(%a, %b : tensor<2x4x3xf32>, tensor<2x4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>], iterator_types = ["reduction", "parallel", "parallel", "reduction"]}
