// transform-dialect-interpreter keeps the script by default, as ByteIR's
// does: the output still holds the transform.sequence after the tiled
// payload. Compiled code ignores top-level transform ops (scripts, not
// code), so this RUN line's output also runs natively as it is (the meaning
// test compiles it: tests/unit/test_pass_meaning.py, OUTPUT_JIT).
// RUN: linalg-ext-opt %s -p transform-dialect-interpreter | filecheck %s

// CHECK-LABEL: func.func @kept
// CHECK:         scf.for
// CHECK:           linalg.elemwise_unary
// CHECK:           linalg.elemwise_binary {__root__}
// CHECK:       transform.sequence failures(propagate)
// CHECK:         transform.structured.fuse_ext
func.func @kept(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = tensor.empty() : tensor<64x32xf32>
  %1 = linalg.elemwise_unary ins(%a : tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %2 = linalg.elemwise_binary {__root__} ins(%1, %b : tensor<64x32xf32>, tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match attributes {__root__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %t, %loops = transform.structured.fuse_ext %0 {tile_sizes = [16]}
  cleanup
}
