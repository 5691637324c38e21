// linalg.add and linalg.mul on i1: upstream ORs and ANDs.
func.func @f(%p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>) {
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.add ins(%p, %q : tensor<4xi1>, tensor<4xi1>) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %m = linalg.mul ins(%p, %q : tensor<4xi1>, tensor<4xi1>) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  return %r, %m : tensor<4xi1>, tensor<4xi1>
}
