// The ops linalg_ext.compat adds, named ops writing in place over their own
// input (only loop order gives upstream's result), and i1 storage: our
// interpreter against upstream.

func.func @map_and_batch_matmul(%a: tensor<2x3x4xi8>, %b: tensor<2x4x5xi8>, %c: tensor<2x3x5xi32>, %x: tensor<6xf32>) -> (tensor<2x3x5xi32>, tensor<6xf32>) {
  %bmm = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xi8>, tensor<2x4x5xi8>) outs(%c : tensor<2x3x5xi32>) -> tensor<2x3x5xi32>
  %e = tensor.empty() : tensor<6xf32>
  %m = linalg.map { math.tanh } ins(%x : tensor<6xf32>) outs(%e : tensor<6xf32>)
  return %bmm, %m : tensor<2x3x5xi32>, tensor<6xf32>
}

func.func @forall_tiles(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %init = tensor.empty() : tensor<8x6xf32>
  %r = scf.forall (%i, %j) in (4, 2) shared_outs(%o = %init) -> (tensor<8x6xf32>) {
    %ii = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %jj = affine.apply affine_map<(d0) -> (d0 * 3)>(%j)
    %tile = tensor.extract_slice %x[%ii, %jj] [2, 3] [1, 1] : tensor<8x6xf32> to tensor<2x3xf32>
    %e = tensor.empty() : tensor<2x3xf32>
    %neg = linalg.negf ins(%tile : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %neg into %o[%ii, %jj] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x6xf32>
    }
  }
  return %r : tensor<8x6xf32>
}

func.func @generate_and_max(%n: index, %i: index) -> (tensor<?x3xi64>, index) {
  %t = tensor.generate %n {
  ^bb0(%p: index, %q: index):
    %s = arith.muli %p, %q : index
    %v = arith.index_cast %s : index to i64
    tensor.yield %v : i64
  } : tensor<?x3xi64>
  %m = affine.max affine_map<(d0)[s0] -> (d0 * 2, s0 + 1)>(%i)[%n]
  return %t, %m : tensor<?x3xi64>, index
}

func.func @i1_storage(%b: i1) -> (tensor<3xi1>, tensor<2x2xi1>) {
  %t = arith.constant true
  %s = tensor.splat %t : tensor<3xi1>
  %e = tensor.empty() : tensor<2x2xi1>
  %f = linalg.fill ins(%b : i1) outs(%e : tensor<2x2xi1>) -> tensor<2x2xi1>
  return %s, %f : tensor<3xi1>, tensor<2x2xi1>
}

func.func @transpose_in_place(%m: memref<4x4xf32>) {
  linalg.transpose ins(%m : memref<4x4xf32>) outs(%m : memref<4x4xf32>) permutation = [1, 0]
  return
}

func.func @matmul_in_place(%m: memref<3x3xf32>) {
  linalg.matmul ins(%m, %m : memref<3x3xf32>, memref<3x3xf32>) outs(%m : memref<3x3xf32>)
  return
}

func.func @conv_fhwc(%img: tensor<1x7x7x3xf32>, %flt: tensor<2x3x3x3xf32>, %out: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%img, %flt : tensor<1x7x7x3xf32>, tensor<2x3x3x3xf32>) outs(%out : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}

func.func @copy_and_cast(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<?xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %d = tensor.cast %c : tensor<4xf32> to tensor<?xf32>
  return %c, %d : tensor<4xf32>, tensor<?xf32>
}
