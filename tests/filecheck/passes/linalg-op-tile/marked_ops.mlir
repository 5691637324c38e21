// linalg-op-tile tiles the ops marked `__byteir_tile__` only: the tiled op
// loses the marker, loops along parallel dimensions get
// `__byteir_parallel__` (a scan tiled along its dimension carries its
// accumulator: that loop is not parallel), unmarked ops stay as they were.
// RUN: linalg-ext-opt %s -p 'linalg-op-tile{tile-sizes=2,4}' | filecheck %s

// CHECK-LABEL: func.func @scan(
// CHECK:         %{{.*}}, %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}})
// CHECK-NEXT:      %{{.*}}, %{{.*}} = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[O]], %{{.*}} = %[[C]])
// CHECK:             linalg_ext.scan dimension(0) inclusive(true) ins(%{{.*}} : tensor<2x4xi32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xi32>, tensor<4xi32>)
// CHECK:             scf.yield
// CHECK-NEXT:      } {__byteir_parallel__}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }{{$}}
// CHECK-NEXT:    func.return
func.func @scan(%x: tensor<16x32xi32>) -> tensor<16x32xi32> {
  %zero = arith.constant 0 : i32
  %empty = tensor.empty() : tensor<32xi32>
  %carry = linalg.fill ins(%zero : i32) outs(%empty : tensor<32xi32>) -> tensor<32xi32>
  %out = tensor.empty() : tensor<16x32xi32>
  %r:2 = linalg_ext.scan {__internal_linalg_transform__ = "__byteir_tile__"}
      dimension(0) inclusive(true)
      ins(%x : tensor<16x32xi32>) outs(%out, %carry : tensor<16x32xi32>, tensor<32xi32>) {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    linalg_ext.yield %s : i32
  } -> tensor<16x32xi32>, tensor<32xi32>
  return %r#0 : tensor<16x32xi32>
}

// Two matmuls, only the marked one is tiled (its k loop, a reduction, is
// not tiled: 2 sizes for 3 loops); the other keeps its place.
// CHECK-LABEL: func.func @one_of_two(
// CHECK:         %[[T:.*]] = scf.for
// CHECK-NEXT:      scf.for
// CHECK:             linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK-NOT:         __internal_linalg_transform__
// CHECK:           } {__byteir_parallel__}
// CHECK:         } {__byteir_parallel__}
// CHECK-NEXT:    linalg.matmul {keep} ins(%[[T]], %{{.*}} : tensor<6x8xf32>, tensor<8x8xf32>)
func.func @one_of_two(%a: tensor<6x8xf32>, %b: tensor<8x8xf32>, %c: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %t = linalg.matmul {__internal_linalg_transform__ = "__byteir_tile__"}
      ins(%a, %b : tensor<6x8xf32>, tensor<8x8xf32>) outs(%c : tensor<6x8xf32>) -> tensor<6x8xf32>
  %r = linalg.matmul {keep} ins(%t, %b : tensor<6x8xf32>, tensor<8x8xf32>) outs(%c : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
