// What is not a contraction on memrefs, or too small to pay for packing, is
// left for convert-linalg-to-loops-ext.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256}' | filecheck %s

// 8 x 8 x 8 = 512 multiply-adds < min-multiply-adds (32768).
func.func @small(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  linalg.matmul ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  return
}
// CHECK-LABEL: func.func @small
// CHECK-NEXT:    linalg.matmul

// Integers: not a float contraction.
func.func @integers(%a: memref<64x64xi32>, %b: memref<64x64xi32>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x64xi32>, memref<64x64xi32>) outs(%c : memref<64x64xi32>)
  return
}
// CHECK-LABEL: func.func @integers
// CHECK-NEXT:    linalg.matmul

// Mixed element types (f16 inputs, f32 accumulator: the body converts).
func.func @mixed(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}
// CHECK-LABEL: func.func @mixed
// CHECK-NEXT:    linalg.matmul

// A matrix-vector product has no column loop of its own on the rhs.
func.func @matvec(%a: memref<256x256xf32>, %x: memref<256xf32>, %y: memref<256xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %x : memref<256x256xf32>, memref<256xf32>) outs(%y : memref<256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @matvec
// CHECK-NEXT:    linalg.generic

// A body other than a multiply-add (a max-plus product).
#lhs = affine_map<(m, n, k) -> (m, k)>
#rhs = affine_map<(m, n, k) -> (k, n)>
#out = affine_map<(m, n, k) -> (m, n)>
func.func @max_plus(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.addf %x, %y : f32
    %s = arith.maximumf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @max_plus
// CHECK-NEXT:    linalg.generic

// On tensors: bufferize first.
func.func @tensors(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
// CHECK-LABEL: func.func @tensors
// CHECK-NEXT:    linalg.matmul
