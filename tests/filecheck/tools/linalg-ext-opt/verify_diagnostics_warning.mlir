// A Python warning a pass issues is a warning diagnostic at the module (the
// `builtin.module` written, else the first op of the implicit one): an
// expected-warning matches it, and without --verify-diagnostics it is
// printed and the run succeeds.
// RUN: linalg-ext-opt %s --verify-diagnostics -p reconcile-unrealized-casts
// RUN: linalg-ext-opt %s -p reconcile-unrealized-casts 2>&1 >/dev/null | filecheck %s

// expected-warning@below {{Unable to remove cast}}
func.func @cast(%a: i32) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i32 to i64
  return %0 : i64
}

// CHECK: {{.*}}verify_diagnostics_warning.mlir:9:1: warning: Unable to remove cast
