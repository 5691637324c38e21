// What linalg-ext-run refuses before running anything, each in one line:
// a module that does not verify (located at the op), an entry that is only
// declared, an argument type no backend passes, a --save-dir that is a file,
// a flag it does not know. %t.mlir is this file without @invalid.
// RUN: not linalg-ext-run %s --entry unranked 2>&1 | filecheck %s --check-prefix=INVALID
// RUN: sed -e '/^func.func @invalid/,/^}/d' %s > %t.mlir
// RUN: not linalg-ext-run %t.mlir --entry external 2>&1 | filecheck %s --check-prefix=DECLARED
// RUN: not linalg-ext-run %t.mlir --entry unranked 2>&1 | filecheck %s --check-prefix=UNRANKED
// RUN: not linalg-ext-run %t.mlir --entry unranked --backend jit 2>&1 | filecheck %s --check-prefix=UNRANKED
// RUN: not linalg-ext-run %t.mlir --entry unranked --save-dir %s 2>&1 | filecheck %s --check-prefix=SAVE
// RUN: not linalg-ext-run %t.mlir --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG

func.func private @external(i32) -> i32

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

func.func @invalid() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64
}

// INVALID:     linalg-ext-run: error: {{.*}}bad_module.mlir:21:3: invalid IR: 'func.return' op {{.*}}
// INVALID-NOT: {{.}}
// DECLARED:     linalg-ext-run: error: @external is only declared in {{.*}}, not defined
// DECLARED-NOT: {{.}}
// UNRANKED:     linalg-ext-run: error: argument #0 of @unranked: unsupported type tensor<*xf32>
// UNRANKED-NOT: {{.}}
// SAVE:     linalg-ext-run: error: --save-dir {{.*}}bad_module.mlir: exists and is not a directory
// SAVE-NOT: {{.}}
// FLAG:     linalg-ext-run: error: unrecognized arguments: --no-such-flag (--help lists the options)
// FLAG-NOT: {{.}}
