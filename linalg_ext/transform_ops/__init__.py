"""Transform-dialect ops of this package (`transform.structured.fuse`,
`fuse_into_containing_op`, ...) and their implementations for xDSL's
`transform-interpreter`, built on `linalg_ext.tiling`."""
