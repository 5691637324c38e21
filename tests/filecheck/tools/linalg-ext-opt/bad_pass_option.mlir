// An option the pass does not have: spelt as on the command line, with the
// valid ones listed hyphenated. A bad pipeline spelling is one line too.
// RUN: not linalg-ext-opt %s -p 'lower-to-llvm{allow-recompute=true}' 2>&1 | filecheck %s
// RUN: not linalg-ext-opt %s -p 'fuse-pad{' 2>&1 | filecheck %s --check-prefix=SYNTAX

func.func @f() {
  func.return
}

// CHECK:     linalg-ext-opt: error: pass 'lower-to-llvm' has no option 'allow-recompute'; its options: approximate-math, fast-math, microkernels, parallel, runtime-checks, use-generic-functions, vector-bits
// CHECK-NOT: {{.}}

// SYNTAX:     linalg-ext-opt: error: cannot parse the pass pipeline 'fuse-pad{' at column 10: {{.+}}
// SYNTAX-NOT: {{.}}
