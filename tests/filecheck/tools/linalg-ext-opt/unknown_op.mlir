// An op of no registered dialect.
// RUN: not linalg-ext-opt %s 2>&1 | filecheck %s

func.func @f() {
  "foo.bar"() : () -> ()
  func.return
}

// CHECK:     {{.*}}unknown_op.mlir:5:3: error: Operation foo.bar is not registered{{.*}}
// CHECK-NOT: {{.}}
