// dense_resource constants (how torch-mlir writes a model's weights) bufferize
// as dense ones do, and as upstream does: a private constant memref.global
// whose initial value is the resource (one global per resource and type), read
// with memref.get_global; a write goes to a copy. The output keeps the blobs
// it still refers to: the unused constant's blob is gone.
// RUN: linalg-ext-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: linalg-ext-check %s -p 'one-shot-bufferize{bufferize-function-boundaries=true},buffer-deallocation-pipeline' --backend jit | filecheck %s --check-prefix=RUNS
// RUN: linalg-ext-check %s -p 'one-shot-bufferize{bufferize-function-boundaries=true},buffer-deallocation-pipeline' | filecheck %s --check-prefix=RUNS

// CHECK:       "memref.global"() <{sym_name = "[[W:__constant_4x3xf32[_0-9]*]]", type = memref<4x3xf32>, initial_value = dense_resource<weight> : tensor<4x3xf32>, sym_visibility = "private", constant, alignment = 64 : i64}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[B:__constant_3xf32[_0-9]*]]", type = memref<3xf32>, initial_value = dense_resource<bias> : tensor<3xf32>, {{.*}}}> : () -> ()
// CHECK-NEXT:  "memref.global"() <{sym_name = "[[K:__constant_3xi64[_0-9]*]]", type = memref<3xi64>, initial_value = dense_resource<steps> : tensor<3xi64>, {{.*}}}> : () -> ()
// CHECK-NOT:   "memref.global"

// A linear layer with relu.
func.func @linear(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense_resource<weight> : tensor<4x3xf32>
  %b = arith.constant dense_resource<bias> : tensor<3xf32>
  %unused = arith.constant dense_resource<unused> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x3xf32>) outs(%f : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
// CHECK-LABEL: func.func @linear(
// CHECK:         %{{.*}} = memref.get_global @[[W]] : memref<4x3xf32>
// CHECK-NEXT:    %{{.*}} = memref.get_global @[[B]] : memref<3xf32>
// CHECK-NOT:     memref.get_global
// CHECK:         func.return

// The same resource twice shares the global; a write goes to a copy.
func.func @written(%i: index, %v: i64) -> (tensor<3xi64>, tensor<3xi64>) {
  %a = arith.constant dense_resource<steps> : tensor<3xi64>
  %b = arith.constant dense_resource<steps> : tensor<3xi64>
  %c = tensor.insert %v into %b[%i] : tensor<3xi64>
  return %a, %c : tensor<3xi64>, tensor<3xi64>
}
// CHECK-LABEL: func.func @written(
// CHECK-NEXT:    %[[A:.*]] = memref.get_global @[[K]] : memref<3xi64>
// CHECK-NEXT:    %[[B2:.*]] = memref.get_global @[[K]] : memref<3xi64>
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi64>
// CHECK-NEXT:    "memref.copy"(%[[B2]], %[[C]]) : (memref<3xi64>, memref<3xi64>) -> ()
// CHECK-NEXT:    memref.store %v, %[[C]][%i] {{.*}}: memref<3xi64>
// CHECK-NEXT:    func.return %[[A]], %[[C]] : memref<3xi64>, memref<3xi64>

// CHECK:       {-#
// CHECK-NEXT:    dialect_resources: {
// CHECK-NEXT:      builtin: {
// CHECK-NEXT:        bias: "0x04000000000000BF0000803E0000A03F",
// CHECK-NEXT:        steps: "0x08000000010000000000000002000000000000000300000000000000",
// CHECK-NEXT:        weight: "0x040000000000803F000000C00000003F0000803E000000BF0000403F0000803F0000803F000000000000C0BF000000400000803E"
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  #-}

// RUNS: @linear: OK
// RUNS: @written: OK

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000C00000003F0000803E000000BF0000403F0000803F0000803F000000000000C0BF000000400000803E",
      bias: "0x04000000000000BF0000803E0000A03F",
      unused: "0x040000000000803F00000040",
      steps: "0x08000000010000000000000002000000000000000300000000000000"
    }
  }
#-}
