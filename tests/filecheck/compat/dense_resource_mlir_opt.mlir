// dense_resource constants and globals between mlir-opt-22 and us: what
// upstream's bufferization prints (a memref.global whose initial value is the
// resource, in its custom form) reads back with its blob, and our output reads
// in mlir-opt-22 with the same blobs.
// REQUIRES: mlir-opt-22
// RUN: mlir-opt-22 %s --one-shot-bufferize=bufferize-function-boundaries | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

func.func @scale(%x: tensor<3xf32>) -> tensor<3xf32> {
  %w = arith.constant dense_resource<scale> : tensor<3xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.mul ins(%x, %w : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
// CHECK:       "memref.global"() <{alignment = 64 : i64, sym_name = "__constant_3xf32", sym_visibility = "private", type = memref<3xf32>, initial_value = dense_resource<scale> : tensor<3xf32>, constant}> : () -> ()
// CHECK:       memref.get_global @__constant_3xf32 : memref<3xf32>
// CHECK:       scale: "0x040000000000803F000000400000C0BF"

// UPSTREAM:    memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense_resource<scale> {alignment = 64 : i64}
// UPSTREAM:    memref.get_global @__constant_3xf32 : memref<3xf32>
// UPSTREAM:    scale: "0x040000000000803F000000400000C0BF"

{-#
  dialect_resources: {
    builtin: {
      scale: "0x040000000000803F000000400000C0BF"
    }
  }
#-}
