// Upstream tensor ops, compiled by mlir-opt-22 and run by our interpreter:
// the results must agree (tests/unit/test_upstream_oracle.py).

func.func @slices(%x: tensor<6x8xf32>, %y: tensor<2x3xf32>) -> (tensor<3x4xf32>, tensor<6x8xf32>, tensor<8xf32>) {
  // A strided slice, an insertion into the source, a rank-reducing slice.
  %s = tensor.extract_slice %x[1, 0] [3, 4] [2, 2] : tensor<6x8xf32> to tensor<3x4xf32>
  %i = tensor.insert_slice %y into %x[4, 5] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x8xf32>
  %r = tensor.extract_slice %x[2, 0] [1, 8] [1, 1] : tensor<6x8xf32> to tensor<8xf32>
  return %s, %i, %r : tensor<3x4xf32>, tensor<6x8xf32>, tensor<8xf32>
}

func.func @dynamic_slices(%x: tensor<6x8xf32>, %o: index, %n: index) -> tensor<6x8xf32> {
  %s = tensor.extract_slice %x[%o, 1] [2, %n] [1, 1] : tensor<6x8xf32> to tensor<2x?xf32>
  %i = tensor.insert_slice %s into %x[0, %o] [2, %n] [2, 1] : tensor<2x?xf32> into tensor<6x8xf32>
  return %i : tensor<6x8xf32>
}

func.func @reshapes(%x: tensor<2x3x4xi32>) -> (tensor<6x4xi32>, tensor<2x3x2x2xi32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xi32> into tensor<6x4xi32>
  %e = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<2x3x4xi32> into tensor<2x3x2x2xi32>
  return %c, %e : tensor<6x4xi32>, tensor<2x3x2x2xi32>
}

func.func @pad_constant(%x: tensor<3x4xf32>, %v: f32) -> tensor<6x5xf32> {
  %p = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<6x5xf32>
  return %p : tensor<6x5xf32>
}

func.func @pad_index_dependent(%x: tensor<3x4xi64>) -> tensor<5x6xi64> {
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %v = arith.index_cast %s : index to i64
    tensor.yield %v : i64
  } : tensor<3x4xi64> to tensor<5x6xi64>
  return %p : tensor<5x6xi64>
}

func.func @elements(%a: f32, %b: f32, %x: tensor<2x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, f32, tensor<2x2xf32>, index) {
  %f = tensor.from_elements %a, %b : tensor<2xf32>
  %s = tensor.splat %a : tensor<3x2xf32>
  %c1 = arith.constant 1 : index
  %e = tensor.extract %x[%c1, %c1] : tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  %i = tensor.insert %b into %x[%c0, %c1] : tensor<2x2xf32>
  %d = tensor.dim %x, %c1 : tensor<2x2xf32>
  return %f, %s, %e, %i, %d : tensor<2xf32>, tensor<3x2xf32>, f32, tensor<2x2xf32>, index
}

// Dense tensor constants, splat and not, of float, integer, index and i1
// elements, combined with an argument so the values are used.
func.func @dense_constants(%x: tensor<2x3xf32>, %n: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<3xi32>, tensor<2xindex>, tensor<2xi1>) {
  %scale = arith.constant dense<[[1.5, -2.0, 0.25], [3.0, 0.0, -1.0]]> : tensor<2x3xf32>
  %bias = arith.constant dense<7> : tensor<3xi32>
  %positions = arith.constant dense<[4, 9]> : tensor<2xindex>
  %flags = arith.constant dense<[true, false]> : tensor<2xi1>
  %e = tensor.empty() : tensor<2x3xf32>
  %scaled = linalg.mul ins(%x, %scale : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %ei = tensor.empty() : tensor<3xi32>
  %shifted = linalg.add ins(%n, %bias : tensor<3xi32>, tensor<3xi32>) outs(%ei : tensor<3xi32>) -> tensor<3xi32>
  return %scaled, %shifted, %positions, %flags : tensor<2x3xf32>, tensor<3xi32>, tensor<2xindex>, tensor<2xi1>
}
