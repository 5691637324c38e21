// A file that does not exist.
// RUN: not linalg-ext-opt %t.does-not-exist.mlir 2>&1 | filecheck %s

// CHECK:     linalg-ext-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// CHECK-NOT: {{.}}
