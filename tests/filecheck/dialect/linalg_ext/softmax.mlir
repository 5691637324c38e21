// Round trip of softmax and unnorm_softmax: custom form, re-parse of the
// printed form, and re-parse of the generic form all print the same.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @softmax_rows_tensor
func.func @softmax_rows_tensor(%x: tensor<6x10xf32>, %m0: tensor<6xf32>, %a0: tensor<6xf32>) -> (tensor<6x10xf32>, tensor<6xf32>) {
  %out = tensor.empty() : tensor<6x10xf32>
  %scale = tensor.empty() : tensor<6xf32>
  %r:4 = linalg_ext.softmax
      dimension(1)
      ins(%x : tensor<6x10xf32>)
      outs(%out, %m0, %a0, %scale : tensor<6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
      : tensor<6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return %r#0, %r#3 : tensor<6x10xf32>, tensor<6xf32>
}
// CHECK-NEXT: %out = tensor.empty() : tensor<6x10xf32>
// CHECK-NEXT: %scale = tensor.empty() : tensor<6xf32>
// CHECK-NEXT: %[[R0:.*]], %{{.*}}, %{{.*}}, %[[R3:.*]] = linalg_ext.softmax dimension(1) ins(%x : tensor<6x10xf32>) outs(%out, %m0, %a0, %scale : tensor<6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) : tensor<6x10xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
// CHECK-NEXT: func.return %[[R0]], %[[R3]] : tensor<6x10xf32>, tensor<6xf32>

// A discardable attribute goes in front, as in ByteIR's `{__root__}` marker.
// CHECK-LABEL: func.func @softmax_columns_with_attr
func.func @softmax_columns_with_attr(%x: tensor<3x5x7xf16>, %o: tensor<3x5x7xf16>, %m: tensor<3x7xf16>, %a: tensor<3x7xf16>, %s: tensor<3x7xf16>) -> tensor<3x5x7xf16> {
  %r:4 = linalg_ext.softmax {__root__, tag = "rows"} dimension(1) ins(%x : tensor<3x5x7xf16>) outs(%o, %m, %a, %s : tensor<3x5x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>) : tensor<3x5x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>
  return %r#0 : tensor<3x5x7xf16>
}
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax {__root__, tag = "rows"} dimension(1) ins(%x : tensor<3x5x7xf16>) outs(%o, %m, %a, %s : tensor<3x5x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>) : tensor<3x5x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>, tensor<3x7xf16>

// CHECK-LABEL: func.func @softmax_dynamic
func.func @softmax_dynamic(%x: tensor<?x?xf64>, %o: tensor<?x?xf64>, %m: tensor<?xf64>, %a: tensor<?xf64>, %s: tensor<?xf64>) -> tensor<?x?xf64> {
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<?x?xf64>) outs(%o, %m, %a, %s : tensor<?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) : tensor<?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>
  return %r#0 : tensor<?x?xf64>
}
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(0) ins(%x : tensor<?x?xf64>) outs(%o, %m, %a, %s : tensor<?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>) : tensor<?x?xf64>, tensor<?xf64>, tensor<?xf64>, tensor<?xf64>

// CHECK-LABEL: func.func @softmax_memref
func.func @softmax_memref(%x: memref<8x16xf32>, %o: memref<8x16xf32>, %m: memref<16xf32>, %a: memref<16xf32>, %s: memref<16xf32>) {
  linalg_ext.softmax
    dimension(0)
    ins(%x : memref<8x16xf32>) outs(%o, %m, %a, %s : memref<8x16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>)
  return
}
// CHECK-NEXT: linalg_ext.softmax dimension(0) ins(%x : memref<8x16xf32>) outs(%o, %m, %a, %s : memref<8x16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>)
// CHECK-NEXT: func.return

// CHECK-LABEL: func.func @unnorm_softmax_tensor
func.func @unnorm_softmax_tensor(%x: tensor<4x9xbf16>, %o: tensor<4x9xbf16>, %m: tensor<4xbf16>, %a: tensor<4xbf16>, %s: tensor<4xbf16>) -> tensor<4xbf16> {
  %r:4 = linalg_ext.unnorm_softmax
    dimension(1)
    ins(%x : tensor<4x9xbf16>) outs(%o, %m, %a, %s : tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) : tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>
  return %r#3 : tensor<4xbf16>
}
// CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %[[S:.*]] = linalg_ext.unnorm_softmax dimension(1) ins(%x : tensor<4x9xbf16>) outs(%o, %m, %a, %s : tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>) : tensor<4x9xbf16>, tensor<4xbf16>, tensor<4xbf16>, tensor<4xbf16>
// CHECK-NEXT: func.return %[[S]] : tensor<4xbf16>

// CHECK-LABEL: func.func @unnorm_softmax_memref
func.func @unnorm_softmax_memref(%x: memref<2x3x4xf32>, %o: memref<2x3x4xf32>, %m: memref<2x3xf32>, %a: memref<2x3xf32>, %s: memref<2x3xf32>) {
  linalg_ext.unnorm_softmax dimension(2) ins(%x : memref<2x3x4xf32>) outs(%o, %m, %a, %s : memref<2x3x4xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<2x3xf32>)
  return
}
// CHECK-NEXT: linalg_ext.unnorm_softmax dimension(2) ins(%x : memref<2x3x4xf32>) outs(%o, %m, %a, %s : memref<2x3x4xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<2x3xf32>)
