// An upstream op that xDSL 0.74 lacks (linalg.map), before any linalg_ext op:
// the stock xdsl-opt cannot read it unless one of our passes is named.
func.func @exp(%a: tensor<8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%init : tensor<8xf32>)
  return %r : tensor<8xf32>
}
