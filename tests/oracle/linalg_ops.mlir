// Upstream Linalg ops: our interpreter against mlir-opt-22's compiled code.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @generic_two_results(%x: tensor<4x5xf32>, %y: tensor<4xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %a = tensor.empty() : tensor<4x5xf32>
  %b = tensor.empty() : tensor<4x5xf32>
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<4x5xf32>, tensor<4xf32>) outs(%a, %b : tensor<4x5xf32>, tensor<4x5xf32>) {
  ^bb0(%v: f32, %w: f32, %o1: f32, %o2: f32):
    %s = arith.addf %v, %w : f32
    %e = math.exp %v : f32
    %m = arith.mulf %e, %w : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<4x5xf32>, tensor<4x5xf32>)
  return %r#0, %r#1 : tensor<4x5xf32>, tensor<4x5xf32>
}

func.func @generic_index_and_reduction(%x: tensor<4x5xi32>) -> tensor<4xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x5xi32>) outs(%acc : tensor<4xi32>) {
  ^bb0(%v: i32, %a: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %w = arith.muli %v, %ji : i32
    %s = arith.addi %a, %w : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

func.func @named(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>, %v: tensor<5xf32>) -> (tensor<3x5xf32>, tensor<5x3xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<3x5xf32>) {
  %mm = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  %te = tensor.empty() : tensor<5x3xf32>
  %t = linalg.transpose ins(%mm : tensor<3x5xf32>) outs(%te : tensor<5x3xf32>) permutation = [1, 0]
  %be = tensor.empty() : tensor<3x5xf32>
  %bc = linalg.broadcast ins(%v : tensor<5xf32>) outs(%be : tensor<3x5xf32>) dimensions = [0]
  %zero = arith.constant 0.0 : f32
  %re = tensor.empty() : tensor<3xf32>
  %rf = linalg.fill ins(%zero : f32) outs(%re : tensor<3xf32>) -> tensor<3xf32>
  %red = linalg.reduce ins(%mm : tensor<3x5xf32>) outs(%rf : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.maximumf %in, %acc : f32
      linalg.yield %s : f32
    }
  %ae = tensor.empty() : tensor<3x5xf32>
  %add = linalg.add ins(%mm, %bc : tensor<3x5xf32>, tensor<3x5xf32>) outs(%ae : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %mm, %t, %bc, %red, %add : tensor<3x5xf32>, tensor<5x3xf32>, tensor<3x5xf32>, tensor<3xf32>, tensor<3x5xf32>
}

func.func @conv(%img: tensor<1x6x6x2xf32>, %flt: tensor<3x3x2x4xf32>, %out: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%out : tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %r : tensor<1x2x2x4xf32>
}
