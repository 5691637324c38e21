"""Lowering: what the loop and LLVM lowering passes share.

- `loop_nest`: `LoopNestBuilder`, the one builder of `scf` loops (with
  `iter_args`), index constants and extents, on memrefs and tensors; used
  by `convert-linalg-to-loops-ext`, `convert-linalg-ext-to-loops`,
  `convert-scf-to-cf-ext` and `lower-affine-ext`.
- `linalg_ext_loops`: each `linalg_ext` op on memrefs as loops.
- `llvm_types`: the type conversion (index -> i64, memref -> descriptor
  struct), the memref descriptor builder, and the casts between a converted
  value and its original type that keep each pass independent
  (`builtin.unrealized_conversion_cast`, removed at the end by
  `reconcile-unrealized-casts`).
- `scalar_ops`: what the scalar `convert-*-to-llvm` passes share.
- The memref lowering (`finalize-memref-to-llvm`): `memref_ops` (index
  arithmetic, descriptors, operands), `memref_runtime` (the functions the
  code calls), `memref_patterns`, `memref_views`, `memref_copy` (with the
  one loop nest built in the `llvm` dialect, as blocks and branches).

The passes live in `passes/`; the JIT that runs their result in
`linalg_ext.jit`.
"""
