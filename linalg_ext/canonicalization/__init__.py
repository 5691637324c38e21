"""`canonicalize-ext`'s patterns: xDSL's canonicalization, the tiling
clean-up's folds, ByteIR's `FoldGenericOp` and the upstream folds xDSL 0.74
lacks (`patterns`, `folds`). A layer above `tiling`, whose clean-up patterns it
reuses."""
