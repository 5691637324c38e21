// Round trip of batch_matmul in its four layouts. The custom form hides the
// multiply-accumulate region; the generic form shows it.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @bmm_nn
func.func @bmm_nn(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>, %c: tensor<4x8x32xf32>) -> tensor<4x8x32xf32> {
  %r = linalg_ext.batch_matmul
         ins(%a, %b: tensor<4x8x16xf32>, tensor<4x16x32xf32>)
         outs(%c: tensor<4x8x32xf32>)
         layout = "nn"
  return %r : tensor<4x8x32xf32>
}
// CHECK-NEXT: %r = linalg_ext.batch_matmul ins(%a, %b : tensor<4x8x16xf32>, tensor<4x16x32xf32>) outs(%c : tensor<4x8x32xf32>) layout = "nn"
// CHECK-NEXT: func.return %r : tensor<4x8x32xf32>
// GENERIC-LABEL: "func.func"() <{sym_name = "bmm_nn"
// GENERIC:      "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "nn"}> ({
// GENERIC-NEXT: ^bb0(%[[L:.*]]: f32, %[[R:.*]]: f32, %[[O:.*]]: f32):
// GENERIC-NEXT:   %[[M:.*]] = "arith.mulf"(%[[L]], %[[R]])
// GENERIC-NEXT:   %[[S:.*]] = "arith.addf"(%[[O]], %[[M]])
// GENERIC-NEXT:   "linalg.yield"(%[[S]]) : (f32) -> ()
// GENERIC-NEXT: }) : (tensor<4x8x16xf32>, tensor<4x16x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>

// CHECK-LABEL: func.func @bmm_nt_4d_with_attr
func.func @bmm_nt_4d_with_attr(%a: tensor<2x3x8x16xf32>, %b: tensor<2x3x32x16xf32>, %c: tensor<2x3x8x32xf32>) -> tensor<2x3x8x32xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x3x8x16xf32>, tensor<2x3x32x16xf32>) outs(%c : tensor<2x3x8x32xf32>) layout = "nt"  {__root__}
  return %r : tensor<2x3x8x32xf32>
}
// CHECK-NEXT: %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x3x8x16xf32>, tensor<2x3x32x16xf32>) outs(%c : tensor<2x3x8x32xf32>) layout = "nt" {__root__}

// The attribute dictionary may also come first; it prints last.
// CHECK-LABEL: func.func @bmm_tn_dynamic
func.func @bmm_tn_dynamic(%a: tensor<?x16x8xf64>, %b: tensor<?x16x?xf64>, %c: tensor<?x8x?xf64>) -> tensor<?x8x?xf64> {
  %r = linalg_ext.batch_matmul {mark = 3 : i64} ins(%a, %b : tensor<?x16x8xf64>, tensor<?x16x?xf64>) outs(%c : tensor<?x8x?xf64>) layout = "tn"
  return %r : tensor<?x8x?xf64>
}
// CHECK-NEXT: %r = linalg_ext.batch_matmul ins(%a, %b : tensor<?x16x8xf64>, tensor<?x16x?xf64>) outs(%c : tensor<?x8x?xf64>) layout = "tn" {mark = 3 : i64}

// Mixed element types: i8 operands accumulate into i32 after sign extension.
// CHECK-LABEL: func.func @bmm_tt_memref_i8_to_i32
func.func @bmm_tt_memref_i8_to_i32(%a: memref<2x16x8xi8>, %b: memref<2x32x16xi8>, %c: memref<2x8x32xi32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x16x8xi8>, memref<2x32x16xi8>) outs(%c : memref<2x8x32xi32>) layout = "tt"
  return
}
// CHECK-NEXT: linalg_ext.batch_matmul ins(%a, %b : memref<2x16x8xi8>, memref<2x32x16xi8>) outs(%c : memref<2x8x32xi32>) layout = "tt"
// CHECK-NEXT: func.return
// GENERIC-LABEL: "func.func"() <{sym_name = "bmm_tt_memref_i8_to_i32"
// GENERIC:      "linalg_ext.batch_matmul"(%a, %b, %c) <{layout = "tt"}> ({
// GENERIC-NEXT: ^bb0(%[[L:.*]]: i8, %[[R:.*]]: i8, %[[O:.*]]: i32):
// GENERIC-NEXT:   %[[LX:.*]] = "arith.extsi"(%[[L]]) : (i8) -> i32
// GENERIC-NEXT:   %[[RX:.*]] = "arith.extsi"(%[[R]]) : (i8) -> i32
// GENERIC-NEXT:   %[[M:.*]] = "arith.muli"(%[[LX]], %[[RX]])
// GENERIC-NEXT:   %[[S:.*]] = "arith.addi"(%[[O]], %[[M]])
// GENERIC-NEXT:   "linalg.yield"(%[[S]]) : (i32) -> ()
// GENERIC-NEXT: }) : (memref<2x16x8xi8>, memref<2x32x16xi8>, memref<2x8x32xi32>) -> ()

// bf16 inputs widened to an f32 accumulator.
// CHECK-LABEL: func.func @bmm_bf16_to_f32
func.func @bmm_bf16_to_f32(%a: tensor<1x2x3xbf16>, %b: tensor<1x3x4xbf16>, %c: tensor<1x2x4xf32>) -> tensor<1x2x4xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<1x2x3xbf16>, tensor<1x3x4xbf16>) outs(%c : tensor<1x2x4xf32>) layout = "nn"
  return %r : tensor<1x2x4xf32>
}
// CHECK-NEXT: %r = linalg_ext.batch_matmul ins(%a, %b : tensor<1x2x3xbf16>, tensor<1x3x4xbf16>) outs(%c : tensor<1x2x4xf32>) layout = "nn"
// GENERIC-LABEL: "func.func"() <{sym_name = "bmm_bf16_to_f32"
// GENERIC:      ^bb0(%[[L:.*]]: bf16, %[[R:.*]]: bf16, %[[O:.*]]: f32):
// GENERIC-NEXT:   %{{.*}} = "arith.extf"(%[[L]]) : (bf16) -> f32
// GENERIC-NEXT:   %{{.*}} = "arith.extf"(%[[R]]) : (bf16) -> f32
