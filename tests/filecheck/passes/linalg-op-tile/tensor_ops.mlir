// linalg-op-tile on a tensor.pad and a linalg_ext.layer_norm (its axis stays
// whole: tiled along the two outer dimensions), with partial tiles.
// RUN: linalg-ext-opt %s -p 'linalg-op-tile{tile-sizes=3,4},linalg-ext-tiling-cleanup' | filecheck %s

// CHECK-LABEL: func.func @pad(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             tensor.pad
// CHECK:           } {__byteir_parallel__}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {__byteir_parallel__}
func.func @pad(%x: tensor<5x6xf32>) -> tensor<8x9xf32> {
  %cst = arith.constant 0.5 : f32
  %p = tensor.pad %x low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } {__internal_linalg_transform__ = "__byteir_tile__"} : tensor<5x6xf32> to tensor<8x9xf32>
  return %p : tensor<8x9xf32>
}

// CHECK-LABEL: func.func @layer_norm(
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             linalg_ext.layer_norm axis([2]) epsilon({{.*}}) ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x4x8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK:           } {__byteir_parallel__}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {__byteir_parallel__}
func.func @layer_norm(%x: tensor<4x8x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8x8xf32> {
  %e = tensor.empty() : tensor<4x8x8xf32>
  %r = linalg_ext.layer_norm {__internal_linalg_transform__ = "__byteir_tile__"}
      axis([2]) epsilon(1.0e-05)
      ins(%x, %w, %b : tensor<4x8x8xf32>, tensor<8xf32>, tensor<8xf32>)
      outs(%e : tensor<4x8x8xf32>) : tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}
