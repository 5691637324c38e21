// Marked ops the sizes do not fit, or that cannot be tiled, stay as they
// were, marker included; `report=true` says why, one line each.
// RUN: linalg-ext-opt %s -p 'linalg-op-tile{tile-sizes=4,4 report=true}' 2>&1 | filecheck %s

// CHECK-DAG: linalg-op-tile: linalg_ext.softmax not tiled: linalg_ext.softmax cannot be tiled along loop 1: it must stay whole
// CHECK-DAG: linalg-op-tile: linalg.exp not tiled: linalg.exp has 1 loops but 2 tile sizes were given

// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     scf.for
// CHECK:         linalg_ext.softmax {__internal_linalg_transform__ = "__byteir_tile__"} dimension(1)
func.func @softmax(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %out = tensor.empty() : tensor<16x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %m = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %a = tensor.empty() : tensor<16xf32>
  %r:4 = linalg_ext.softmax {__internal_linalg_transform__ = "__byteir_tile__"}
      dimension(1) ins(%x : tensor<16x8xf32>)
      outs(%out, %m, %s, %a : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  return %r#0 : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @exp(
// CHECK-NOT:     scf.for
// CHECK:         linalg.exp {__internal_linalg_transform__ = "__byteir_tile__"}
func.func @exp(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.exp {__internal_linalg_transform__ = "__byteir_tile__"} ins(%x : tensor<8xf32>) outs(%y : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
