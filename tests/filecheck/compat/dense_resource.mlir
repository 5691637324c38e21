// dense_resource elements and the {-# dialect_resources #-} section (how
// torch-mlir writes a model's weights) read and print back unchanged: each
// blob on its own line, sorted by key, and only the blobs the IR refers to
// (an unreferenced one is dropped, as upstream drops it). A memref.global
// whose initial value is a resource reads in upstream's custom form.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// The stock xdsl-opt with one of our passes (which installs the fixes):
// RUN: linalg-ext-opt %s | xdsl-opt -p linalg-ext-to-linalg | filecheck %s

memref.global "private" constant @table : memref<2xi64> = dense_resource<table> {alignment = 64 : i64}
// CHECK:       "memref.global"() <{alignment = 64 : i64, sym_name = "table", sym_visibility = "private", type = memref<2xi64>, initial_value = dense_resource<table> : tensor<2xi64>, constant}> : () -> ()

func.func @weights() -> (tensor<2x2xf32>, tensor<3xf16>, tensor<2xi1>) {
  %w = arith.constant dense_resource<torch_tensor_2_2_torch.float32> : tensor<2x2xf32>
  %h = arith.constant dense_resource<half> : tensor<3xf16>
  %b = arith.constant dense_resource<flags> : tensor<2xi1>
  return %w, %h, %b : tensor<2x2xf32>, tensor<3xf16>, tensor<2xi1>
}
// CHECK-LABEL: func.func @weights()
// CHECK-NEXT:    %w = arith.constant dense_resource<torch_tensor_2_2_torch.float32> : tensor<2x2xf32>
// CHECK-NEXT:    %h = arith.constant dense_resource<half> : tensor<3xf16>
// CHECK-NEXT:    %b = arith.constant dense_resource<flags> : tensor<2xi1>

// CHECK:       {-#
// CHECK-NEXT:    dialect_resources: {
// CHECK-NEXT:      builtin: {
// CHECK-NEXT:        flags: "0x010000000100",
// CHECK-NEXT:        half: "0x02000000003C00400042",
// CHECK-NEXT:        table: "0x0800000001000000000000000200000000000000",
// CHECK-NEXT:        torch_tensor_2_2_torch.float32: "0x040000000000803F000000400000404000008040"
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  #-}
// CHECK-NOT:   unreferenced

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_2_torch.float32: "0x040000000000803F000000400000404000008040",
      half: "0x02000000003C00400042",
      unreferenced: "0x0400000000000000",
      flags: "0x010000000100",
      table: "0x0800000001000000000000000200000000000000"
    }
  }
#-}
