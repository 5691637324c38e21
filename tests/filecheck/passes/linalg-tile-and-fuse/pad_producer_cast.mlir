// A tensor.pad producer fused into the 3×5 tiles of its consumer: the pad's
// tile reads only the part of its source the tile needs (clamped offsets and
// sizes) and pads the rest. The pad's tile has a dynamic type
// (tensor<?x?xf32>) where the slice it replaces was static (tensor<3x5xf32>):
// a tensor.cast restores the slice's type.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=3,5}' | filecheck %s

// CHECK-LABEL: func.func @pad_then_exp
func.func @pad_then_exp(%x: tensor<6x7xf32>, %v: f32) -> tensor<9x10xf32> {
  %p = tensor.pad %x low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<6x7xf32> to tensor<9x10xf32>
  %e = tensor.empty() : tensor<9x10xf32>
  %r = linalg.exp ins(%p : tensor<9x10xf32>) outs(%e : tensor<9x10xf32>) -> tensor<9x10xf32>
  return %r : tensor<9x10xf32>
}
// CHECK-NOT:      tensor.pad
// CHECK:          %r = scf.for
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<9x10xf32>) {
// CHECK:              %[[SRC:.*]] = tensor.extract_slice %x[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[PAD:.*]] = tensor.pad %[[SRC]] low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}] {
// CHECK:              } : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[CAST:.*]] = tensor.cast %[[PAD]] : tensor<?x?xf32> to tensor<3x5xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%{{.*}}, %[[J]]] [3, 5] [1, 1] : tensor<9x10xf32> to tensor<3x5xf32>
// CHECK-NEXT:         linalg.exp ins(%[[CAST]] : tensor<3x5xf32>) outs(%[[D]] : tensor<3x5xf32>) -> tensor<3x5xf32>
