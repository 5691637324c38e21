// An upstream op that does not verify: located at the op, named as upstream
// names it ('func.return' op ...).
// RUN: not linalg-ext-opt %s 2>&1 | filecheck %s

func.func @f(%a: i32) -> i64 {
  func.return %a : i32
}

// CHECK:     {{.*}}verifier_upstream.mlir:6:3: error: 'func.return' op {{.*}}expected [i64], got [i32]
// CHECK-NOT: {{.}}
