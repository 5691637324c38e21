// A wrong expectation makes --verify-diagnostics fail with upstream's
// messages: the diagnostic produced is unexpected, the one expected was not
// produced, also for a wrong line and a wrong kind.
// RUN: not linalg-ext-opt %s --split-input-file --verify-diagnostics 2>&1 >/dev/null | filecheck %s

func.func @ret(%a: i32) -> i64 {
  // expected-error@+1 {{expected [i64], got [f32]}}
  func.return %a : i32
}

// CHECK: verify_diagnostics_wrong.mlir:8:3: error: unexpected error: 'func.return' op {{.*}}expected [i64], got [i32]
// CHECK: verify_diagnostics_wrong.mlir:7:6: error: expected error "expected [i64], got [f32]" was not produced

// -----

func.func @line(%a: i32) -> i64 {
  // expected-error@+2 {{expected [i64], got [i32]}}
  func.return %a : i32
}

// CHECK: verify_diagnostics_wrong.mlir:18:3: error: unexpected error: 'func.return' op
// CHECK: verify_diagnostics_wrong.mlir:17:6: error: expected error "expected [i64], got [i32]" was not produced

// -----

func.func @kind(%a: i32) -> i64 {
  // expected-warning@+1 {{expected [i64], got [i32]}}
  func.return %a : i32
}

// CHECK: verify_diagnostics_wrong.mlir:28:3: error: unexpected error: 'func.return' op
// CHECK: verify_diagnostics_wrong.mlir:27:6: error: expected warning "expected [i64], got [i32]" was not produced

// -----

// An expectation with no diagnostic at all.
// expected-error@+1 {{never}}
func.func @fine() {
  func.return
}

// CHECK: verify_diagnostics_wrong.mlir:37:4: error: expected error "never" was not produced
