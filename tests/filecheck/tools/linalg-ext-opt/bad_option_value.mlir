// A value of the wrong type, and a value the pass itself rejects before
// anything runs.
// RUN: not linalg-ext-opt %s -p 'lower-to-llvm{use_generic_functions=7}' 2>&1 | filecheck %s
// RUN: not linalg-ext-opt %s -p 'one-shot-bufferize{analysis-heuristic=sideways}' 2>&1 | filecheck %s --check-prefix=VALUE

func.func @f() {
  func.return
}

// CHECK:     linalg-ext-opt: error: pass 'lower-to-llvm': option 'use-generic-functions' expects true or false, got '7'
// CHECK-NOT: {{.}}

// VALUE:     linalg-ext-opt: error: pass 'one-shot-bufferize': analysis-heuristic='sideways' is not one of bottom-up, top-down
// VALUE-NOT: {{.}}
