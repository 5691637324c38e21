// RUN: linalg-ext-opt %s -p finalize-memref-to-llvm | filecheck %s

// A memref.global whose initial value is a dense_resource (what bufferizing
// a dense_resource constant gives) becomes an llvm.mlir.global that keeps the
// resource, as upstream's lowering does; the translation to LLVM IR (the JIT)
// writes the blob's elements as the global's data. The blobs stay in the
// output.

memref.global "private" constant @matrix : memref<2x3xf32> = dense_resource<matrix> {alignment = 64 : i64}
memref.global "private" constant @half : memref<4xf16> = dense_resource<half>
memref.global "private" constant @wide : memref<2xi64> = dense_resource<wide>
// CHECK:       llvm.mlir.global private constant @matrix(dense_resource<matrix> : tensor<6xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<6 x f32>
// CHECK-NEXT:  llvm.mlir.global private constant @half(dense_resource<half> : tensor<4xf16>) {addr_space = 0 : i32} : !llvm.array<4 x f16>
// CHECK-NEXT:  llvm.mlir.global private constant @wide(dense_resource<wide> : tensor<2xi64>) {addr_space = 0 : i32} : !llvm.array<2 x i64>

func.func @read(%i: index, %j: index) -> (f32, f16, i64) {
  %m = memref.get_global @matrix : memref<2x3xf32>
  %h = memref.get_global @half : memref<4xf16>
  %w = memref.get_global @wide : memref<2xi64>
  %x = memref.load %m[%i, %j] : memref<2x3xf32>
  %y = memref.load %h[%j] : memref<4xf16>
  %k = arith.constant 1 : index
  %z = memref.load %w[%k] : memref<2xi64>
  return %x, %y, %z : f32, f16, i64
}
// CHECK-LABEL: func.func @read(
// CHECK:         %{{.*}} = llvm.mlir.addressof @matrix : !llvm.ptr

// CHECK:       {-#
// CHECK-NEXT:    dialect_resources: {
// CHECK-NEXT:      builtin: {
// CHECK-NEXT:        half: "0x02000000003C0040004200C4",
// CHECK-NEXT:        matrix: "0x040000000000803F000000400000404000008040000000C00000C03F",
// CHECK-NEXT:        wide: "0x0800000007000000000000000000000000000080"
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  #-}

{-#
  dialect_resources: {
    builtin: {
      matrix: "0x040000000000803F000000400000404000008040000000C00000C03F",
      half: "0x02000000003C0040004200C4",
      wide: "0x0800000007000000000000000000000000000080"
    }
  }
#-}
