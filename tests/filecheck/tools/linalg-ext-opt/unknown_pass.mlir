// An unknown pass name, with the closest known one.
// RUN: not linalg-ext-opt %s -p lower-to-lvm 2>&1 | filecheck %s

func.func @f() {
  func.return
}

// CHECK:     linalg-ext-opt: error: unknown pass 'lower-to-lvm' (did you mean 'lower-to-llvm'?); --list-passes lists them
// CHECK-NOT: {{.}}
