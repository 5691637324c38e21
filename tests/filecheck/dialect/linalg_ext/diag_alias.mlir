// Round trip of diag and alias.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @diag_vector
func.func @diag_vector(%v: tensor<5xf32>) -> tensor<5x5xf32> {
  %init = tensor.empty() : tensor<5x5xf32>
  %d = linalg_ext.diag
    ins(%v : tensor<5xf32>) outs(%init : tensor<5x5xf32>) : tensor<5x5xf32>
  return %d : tensor<5x5xf32>
}
// CHECK-NEXT: %init = tensor.empty() : tensor<5x5xf32>
// CHECK-NEXT: %d = linalg_ext.diag ins(%v : tensor<5xf32>) outs(%init : tensor<5x5xf32>) : tensor<5x5xf32>
// CHECK-NEXT: func.return %d : tensor<5x5xf32>

// CHECK-LABEL: func.func @diag_batched_dynamic
func.func @diag_batched_dynamic(%v: tensor<3x?xi32>, %init: tensor<3x?x?xi32>) -> tensor<3x?x?xi32> {
  %d = linalg_ext.diag {kept} ins(%v : tensor<3x?xi32>) outs(%init : tensor<3x?x?xi32>) : tensor<3x?x?xi32>
  return %d : tensor<3x?x?xi32>
}
// CHECK-NEXT: %d = linalg_ext.diag {kept} ins(%v : tensor<3x?xi32>) outs(%init : tensor<3x?x?xi32>) : tensor<3x?x?xi32>

// CHECK-LABEL: func.func @diag_memref
func.func @diag_memref(%v: memref<2x7xf64>, %out: memref<2x7x7xf64>) {
  linalg_ext.diag ins(%v : memref<2x7xf64>) outs(%out : memref<2x7x7xf64>)
  return
}
// CHECK-NEXT: linalg_ext.diag ins(%v : memref<2x7xf64>) outs(%out : memref<2x7x7xf64>)
// CHECK-NEXT: func.return

// CHECK-LABEL: func.func @alias_scalar_and_tensor
func.func @alias_scalar_and_tensor(%s: f32, %t: tensor<2x?xi8>) -> (f32, tensor<2x?xi8>) {
  %a = linalg_ext.alias(%s : f32) : f32
  %b = linalg_ext.alias(%t : tensor<2x?xi8>) {note = 1 : i32} : tensor<2x?xi8>
  return %a, %b : f32, tensor<2x?xi8>
}
// CHECK-NEXT: %a = linalg_ext.alias(%s : f32) : f32
// CHECK-NEXT: %b = linalg_ext.alias(%t : tensor<2x?xi8>) {note = 1 : i32} : tensor<2x?xi8>

// alias inside a generic body, where input-sharing fusion puts it.
// CHECK-LABEL: func.func @alias_in_generic_body
func.func @alias_in_generic_body(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %init = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %same = linalg_ext.alias(%in : f32) : f32
    %twice = arith.addf %in, %same : f32
    linalg.yield %twice : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// CHECK: ^bb0(%in: f32, %acc: f32):
// CHECK-NEXT: %same = linalg_ext.alias(%in : f32) : f32
// CHECK-NEXT: %twice = arith.addf %in, %same : f32
