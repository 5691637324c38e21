// Round trip of layer_norm: optional weight/bias and mean/rstd present and
// absent, several axes, tensor and memref.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @ln_affine
func.func @ln_affine(%x: tensor<4x16x64xf32>, %w: tensor<64xf32>, %b: tensor<64xf32>, %o: tensor<4x16x64xf32>) -> tensor<4x16x64xf32> {
  %r = linalg_ext.layer_norm axis([2]) epsilon(9.9999999747524271E-7) ins(%x, %w, %b : tensor<4x16x64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%o : tensor<4x16x64xf32>) : tensor<4x16x64xf32>
  return %r : tensor<4x16x64xf32>
}
// CHECK-NEXT: %r = linalg_ext.layer_norm axis([2]) epsilon(9.9999999747524271E-7) ins(%x, %w, %b : tensor<4x16x64xf32>, tensor<64xf32>, tensor<64xf32>) outs(%o : tensor<4x16x64xf32>) : tensor<4x16x64xf32>

// No weight or bias; mean and rstd requested; two normalised axes.
// CHECK-LABEL: func.func @ln_statistics
func.func @ln_statistics(%x: tensor<2x3x5x7xf64>, %o: tensor<2x3x5x7xf64>, %mean: tensor<2x3xf64>, %rstd: tensor<2x3xf64>) -> (tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %r:3 = linalg_ext.layer_norm
    axis([2, 3]) epsilon(1.0E-5)
    ins(%x : tensor<2x3x5x7xf64>)
    outs(%o, %mean, %rstd : tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>) : tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>
  return %r#0, %r#1, %r#2 : tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.layer_norm axis([2, 3]) epsilon(1.000000e-05) ins(%x : tensor<2x3x5x7xf64>) outs(%o, %mean, %rstd : tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>) : tensor<2x3x5x7xf64>, tensor<2x3xf64>, tensor<2x3xf64>

// CHECK-LABEL: func.func @ln_dynamic_with_attr
func.func @ln_dynamic_with_attr(%x: tensor<?x32xf16>, %w: tensor<32xf16>, %b: tensor<32xf16>, %o: tensor<?x32xf16>) -> tensor<?x32xf16> {
  %r = linalg_ext.layer_norm {fused} axis([1]) epsilon(0.0) ins(%x, %w, %b : tensor<?x32xf16>, tensor<32xf16>, tensor<32xf16>) outs(%o : tensor<?x32xf16>) : tensor<?x32xf16>
  return %r : tensor<?x32xf16>
}
// CHECK-NEXT: %r = linalg_ext.layer_norm {fused} axis([1]) epsilon(0.000000e+00) ins(%x, %w, %b : tensor<?x32xf16>, tensor<32xf16>, tensor<32xf16>) outs(%o : tensor<?x32xf16>) : tensor<?x32xf16>

// CHECK-LABEL: func.func @ln_memref
func.func @ln_memref(%x: memref<8x128xf32>, %w: memref<128xf32>, %b: memref<128xf32>, %o: memref<8x128xf32>, %mean: memref<8xf32>, %rstd: memref<8xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.0E-6) ins(%x, %w, %b : memref<8x128xf32>, memref<128xf32>, memref<128xf32>) outs(%o, %mean, %rstd : memref<8x128xf32>, memref<8xf32>, memref<8xf32>)
  return
}
// CHECK-NEXT: linalg_ext.layer_norm axis([1]) epsilon(1.000000e-06) ins(%x, %w, %b : memref<8x128xf32>, memref<128xf32>, memref<128xf32>) outs(%o, %mean, %rstd : memref<8x128xf32>, memref<8xf32>, memref<8xf32>)
// CHECK-NEXT: func.return

// MLIR also accepts typed elements in an I64ArrayAttr; they print untyped.
// CHECK-LABEL: func.func @ln_typed_axis
func.func @ln_typed_axis(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg_ext.layer_norm axis([1 : i64]) epsilon(1.0E-5) ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) : tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
// CHECK-NEXT: %r = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) : tensor<3x4xf32>

// Epsilon is printed as MLIR prints it, so text written by ByteIR comes back
// unchanged: six digits when they suffice, else APFloat's 17-digit form.
// Hexadecimal bit patterns parse as in MLIR.
// CHECK-LABEL: func.func @ln_epsilon_spellings
func.func @ln_epsilon_spellings(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %a = linalg_ext.layer_norm axis([1]) epsilon(9.9999997473787516E-6) ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) : tensor<3x4xf32>
  %b = linalg_ext.layer_norm axis([1]) epsilon(0x3EB0C6F7A0B5ED8D) ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) : tensor<3x4xf32>
  %c = linalg_ext.layer_norm axis([1]) epsilon(0.001234567) ins(%x : tensor<3x4xf32>) outs(%x : tensor<3x4xf32>) : tensor<3x4xf32>
  return %a, %b, %c : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
// CHECK-NEXT: %a = linalg_ext.layer_norm axis([1]) epsilon(9.9999997473787516E-6)
// CHECK-NEXT: %b = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-06)
// CHECK-NEXT: %c = linalg_ext.layer_norm axis([1]) epsilon(0.001234567)
