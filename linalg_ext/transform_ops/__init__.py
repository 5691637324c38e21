"""Transform-dialect ops of this package and their implementations for
xDSL's `transform-interpreter`, built on `linalg_ext.tiling`.

- `ops`: the upstream ops xDSL lacks (`transform.structured.fuse`,
  `fuse_into_containing_op`, `transform.loop.peel`) and those it defines
  without upstream's syntax (`split_handle`, `merge_handles`,
  `param.constant`, `cast`), with MLIR 22's syntax;
- `tiling_functions`: `tile_using_for` (ours, for every tileable op),
  `fuse`, `fuse_into_containing_op`; `loop_peel`: `transform.loop.peel`;
  `navigation`: `structured.match` with all its filters, the handle ops;
- `handles`: parameters, operands to tile sizes, one-line failures;
- `install`: puts the ops in xDSL's `transform` dialect and the functions
  in its interpreter, only where our package is loaded.

Pages: docs/transform-ops/.
"""
