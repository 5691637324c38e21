// A value of the wrong type, and a value outside the choices of an option
// typed `Literal[...]`, both refused before anything runs.
// RUN: not linalg-ext-opt %s -p 'lower-to-llvm{use_generic_functions=7}' 2>&1 | filecheck %s
// RUN: not linalg-ext-opt %s -p 'one-shot-bufferize{analysis-heuristic=sideways}' 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not linalg-ext-opt %s -p 'one-shot-bufferize{function-boundary-type-conversion=strided}' 2>&1 | filecheck %s --check-prefix=LAYOUT

func.func @f() {
  func.return
}

// CHECK:     linalg-ext-opt: error: pass 'lower-to-llvm': option 'use-generic-functions' expects true or false, got '7'
// CHECK-NOT: {{.}}

// VALUE:     linalg-ext-opt: error: pass 'one-shot-bufferize': option 'analysis-heuristic' expects one of bottom-up, top-down, got 'sideways'
// VALUE-NOT: {{.}}

// LAYOUT:     linalg-ext-opt: error: pass 'one-shot-bufferize': option 'function-boundary-type-conversion' expects one of infer-layout-map, identity-layout-map, fully-dynamic-layout-map, got 'strided'
// LAYOUT-NOT: {{.}}
