// Upstream-style --verify-diagnostics: every diagnostic below is expected,
// and produced where and as expected, so the run succeeds (exit 0). Line
// numbers are the file's, across --split-input-file chunks.
// RUN: linalg-ext-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: linalg-ext-opt %s --split-input-file --verify-diagnostics -p lower-to-llvm 2>&1 | filecheck %s --check-prefix=PASS

// A linalg_ext verifier error, expected on the line below the designator.
func.func @topk(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>) -> tensor<8x3xf32> {
  // expected-error@+1 {{'linalg_ext.topk' op expected 2 output operands (values, indices), got 1}}
  %r = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}

// -----

// An upstream verifier error, with @above and a regex.
func.func @ret(%a: i32) -> i64 {
  func.return %a : i32
  // expected-error-re@above {{'func.return' op {{.*}} expected [i64], got [i32]}}
}

// -----

// A syntax error, with @below and @N (an absolute line: 35).
// expected-error@below {{Operation foo.bar is not registered}}
"foo.bar"() : () -> ()

// -----

func.func @f() {
  %0 = arith.addi %c, %c : f32
}
// expected-error@35 {{'arith.addi' op Unexpected attribute f32}}

// -----

// A chunk without errors is printed.
func.func @fine() {
  func.return
}

// (The separators are matched as {{^//}} -----: a literal separator here
// would split this file.)
// CHECK:      {{^//}} -----
// CHECK-NEXT: {{^//}} -----
// CHECK-NEXT: {{^//}} -----
// CHECK-NEXT: {{^//}} -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @fine() {

// With -p lower-to-llvm the last chunk is lowered; the pass adds no
// diagnostic to the others (they fail before it runs).
// PASS-NOT:  error
// PASS:      llvm.func @fine()
// PASS-NOT:  error
