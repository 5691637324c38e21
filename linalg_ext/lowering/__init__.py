"""Lowering to the LLVM dialect: what every `convert-*-to-llvm` pass shares.

- `llvm_types`: the type conversion (index -> i64, memref -> descriptor
  struct), the memref descriptor builder, and the casts between a converted
  value and its original type that keep each pass independent
  (`builtin.unrealized_conversion_cast`, removed at the end by
  `reconcile-unrealized-casts`).

The passes live in `passes/`; the JIT that runs their result in
`linalg_ext.jit`.
"""
