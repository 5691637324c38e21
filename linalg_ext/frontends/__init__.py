"""Front ends: models of other frameworks as MLIR text our context parses.

`linalg_ext.frontends.onnx` imports an ONNX model through torch-mlir into
linalg-on-tensors (`linalg-ext-import`). The frameworks are optional (the
`[onnx]` extra) and imported only when a model is imported.
"""
