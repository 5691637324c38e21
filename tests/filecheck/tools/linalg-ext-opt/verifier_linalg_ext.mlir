// A linalg_ext op that does not verify is reported at the op, upstream style.
// RUN: not linalg-ext-opt %s 2>&1 | filecheck %s

func.func @values_only_output(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %r = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// CHECK:     {{.*}}verifier_linalg_ext.mlir:5:8: error: 'linalg_ext.topk' op expected 2 output operands (values, indices), got 1
// CHECK-NOT: {{.}}
