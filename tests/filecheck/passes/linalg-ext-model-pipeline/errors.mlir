// Option values the pass refuses, said in one line.
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-ext-model-pipeline{to=registers}" 2>&1 | filecheck %s --check-prefix=TO
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-ext-model-pipeline{fast-math=loose}" 2>&1 | filecheck %s --check-prefix=FAST
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-ext-model-pipeline{fold-limit=big}" 2>&1 | filecheck %s --check-prefix=LIMIT

// TO: linalg-ext-opt: error: pass 'linalg-ext-model-pipeline': option 'to' expects one of tensors, buffers, llvm, got 'registers'
// FAST: linalg-ext-opt: error: pass 'linalg-ext-model-pipeline': option 'fast-math' expects one of none, contract, reassoc, arcp, fast, got 'loose'
// LIMIT: linalg-ext-opt: error: pass 'linalg-ext-model-pipeline': option 'fold-limit' expects an integer, got 'big'
func.func @f() {
  return
}
