// A scatter whose indices are an argument (docs/tools/linalg-ext-check.md):
// linalg-ext-check gives them valid positions unless told otherwise.
func.func @scatter(%indices: tensor<3x1xi32>, %updates: tensor<3x4xf32>,
                   %dest: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %r = linalg_ext.scatter ins(%indices, %updates : tensor<3x1xi32>, tensor<3x4xf32>)
                          outs(%dest : tensor<5x4xf32>) {
  ^bb0(%u: f32, %d: f32):
    %s = arith.addf %u, %d : f32
    linalg_ext.yield %s : f32
  } -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
