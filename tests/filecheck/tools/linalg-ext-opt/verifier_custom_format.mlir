// A type constraint that fails while the op's custom format is parsed
// (xDSL checks it there) is reported at the op too.
// RUN: not linalg-ext-opt %s 2>&1 | filecheck %s

func.func @f(%a: f32) -> f32 {
  %0 = arith.addi %a, %a : f32
  func.return %0 : f32
}

// CHECK:     {{.*}}verifier_custom_format.mlir:6:8: error: 'arith.addi' op Unexpected attribute f32
// CHECK-NOT: {{.}}
