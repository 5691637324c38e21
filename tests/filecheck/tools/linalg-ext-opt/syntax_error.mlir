// A syntax error: one located line on stderr, no IR, no traceback, exit 1.
// RUN: not linalg-ext-opt %s 2>&1 | filecheck %s

func.func @f() -> i32 {
  %0 = arith.constant 1 : i32 +
  func.return %0 : i32
}

// CHECK:     {{.*}}syntax_error.mlir:5:31: error: {{.+}}
// CHECK-NOT: {{.}}
