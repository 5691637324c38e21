// softmax and unnorm_softmax: the max init copied into the scale output
// (whose init is not read), the max reduced, the exponentials into the
// output, a0 * exp(m0 - max) into the accumulator (and, for softmax, into
// the scale), the exponentials summed onto it; softmax then divides the
// output and the scale by the sum. On memrefs every step writes the op's own
// buffers.
// RUN: xdsl-opt %s -p linalg-ext-to-linalg | filecheck %s

func.func @softmax_tensor(%x: tensor<2x3xf32>, %m0: tensor<2xf32>, %a0: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %o = tensor.empty() : tensor<2x3xf32>
  %s = tensor.empty() : tensor<2xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%o, %m0, %a0, %s : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @softmax_tensor(
// CHECK-NEXT:    %o = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %s = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %max_init = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m0 : tensor<2xf32>) outs(%s : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32, %[[V1:[0-9]+]]: f32):
// CHECK-NEXT:      linalg.yield %[[V0]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3xf32>) outs(%m0 : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT:    %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<2x3xf32>, tensor<2xf32>) outs(%o : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = math.exp %[[V5]] : f32
// CHECK-NEXT:      linalg.yield %[[V6]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    %kept, %[[V7:[0-9]+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<2xf32>) outs(%a0, %max_init : tensor<2xf32>, tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32, %[[V10:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V11:[0-9]+]] = arith.subf %[[V10]], %[[V8]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = math.exp %[[V11]] : f32
// CHECK-NEXT:      %[[V13:[0-9]+]] = arith.mulf %[[V9]], %[[V12]] : f32
// CHECK-NEXT:      linalg.yield %[[V13]], %[[V13]] : f32, f32
// CHECK-NEXT:    } -> (tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:    %r_1 = linalg.reduce { arith.addf } ins(%exp : tensor<2x3xf32>) outs(%kept : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT:    %r_2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r_1 : tensor<2xf32>) outs(%exp : tensor<2x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V16:[0-9]+]] = arith.divf %[[V15]], %[[V14]] : f32
// CHECK-NEXT:      linalg.yield %[[V16]] : f32
// CHECK-NEXT:    } -> tensor<2x3xf32>
// CHECK-NEXT:    %r_3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r_1 : tensor<2xf32>) outs(%[[V7]] : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V17:[0-9]+]]: f32, %[[V18:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V19:[0-9]+]] = arith.divf %[[V18]], %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V19]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    func.return %r_2, %r, %r_1, %r_3 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// CHECK-NEXT:  }

// unnorm_softmax on memrefs along dimension 0: no division; the scale is
// exp(m0 - max).
func.func @unnorm_softmax_memref(%x: memref<3x2xf32>, %o: memref<3x2xf32>, %m: memref<2xf32>, %a: memref<2xf32>, %s: memref<2xf32>) {
  linalg_ext.unnorm_softmax dimension(0) ins(%x : memref<3x2xf32>) outs(%o, %m, %a, %s : memref<3x2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
  return
}
// CHECK-LABEL: func.func @unnorm_softmax_memref(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : memref<2xf32>) outs(%s : memref<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32, %[[V1:[0-9]+]]: f32):
// CHECK-NEXT:      linalg.yield %[[V0]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.reduce { arith.maximumf } ins(%x : memref<3x2xf32>) outs(%m : memref<2xf32>) dimensions = [0]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<3x2xf32>, memref<2xf32>) outs(%o : memref<3x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = math.exp %[[V5]] : f32
// CHECK-NEXT:      linalg.yield %[[V6]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : memref<2xf32>) outs(%a, %s : memref<2xf32>, memref<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V7:[0-9]+]]: f32, %[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.subf %[[V9]], %[[V7]] : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.exp %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.mulf %[[V8]], %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]], %[[V11]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.reduce { arith.addf } ins(%o : memref<3x2xf32>) outs(%a : memref<2xf32>) dimensions = [0]
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Rank 1, dynamic: the statistics are 0-d, their steps loopless generics.
func.func @softmax_rank1(%x: tensor<?xf32>, %o: tensor<?xf32>, %m0: tensor<f32>, %a0: tensor<f32>, %s: tensor<f32>) -> (tensor<?xf32>, tensor<f32>) {
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<?xf32>) outs(%o, %m0, %a0, %s : tensor<?xf32>, tensor<f32>, tensor<f32>, tensor<f32>) : tensor<?xf32>, tensor<f32>, tensor<f32>, tensor<f32>
  return %r#0, %r#3 : tensor<?xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @softmax_rank1(
// CHECK-NEXT:    %max_init = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%m0 : tensor<f32>) outs(%s : tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32, %[[V1:[0-9]+]]: f32):
// CHECK-NEXT:      linalg.yield %[[V0]] : f32
// CHECK-NEXT:    } -> tensor<f32>
// CHECK-NEXT:    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<?xf32>) outs(%m0 : tensor<f32>) dimensions = [0]
// CHECK-NEXT:    %exp = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %r : tensor<?xf32>, tensor<f32>) outs(%o : tensor<?xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = math.exp %[[V5]] : f32
// CHECK-NEXT:      linalg.yield %[[V6]] : f32
// CHECK-NEXT:    } -> tensor<?xf32>
// CHECK-NEXT:    %kept, %[[V7:[0-9]+]] = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%r : tensor<f32>) outs(%a0, %max_init : tensor<f32>, tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32, %[[V10:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V11:[0-9]+]] = arith.subf %[[V10]], %[[V8]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = math.exp %[[V11]] : f32
// CHECK-NEXT:      %[[V13:[0-9]+]] = arith.mulf %[[V9]], %[[V12]] : f32
// CHECK-NEXT:      linalg.yield %[[V13]], %[[V13]] : f32, f32
// CHECK-NEXT:    } -> (tensor<f32>, tensor<f32>)
// CHECK-NEXT:    %r_1 = linalg.reduce { arith.addf } ins(%exp : tensor<?xf32>) outs(%kept : tensor<f32>) dimensions = [0]
// CHECK-NEXT:    %r_2 = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r_1 : tensor<f32>) outs(%exp : tensor<?xf32>) {
// CHECK-NEXT:    ^bb0(%[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V16:[0-9]+]] = arith.divf %[[V15]], %[[V14]] : f32
// CHECK-NEXT:      linalg.yield %[[V16]] : f32
// CHECK-NEXT:    } -> tensor<?xf32>
// CHECK-NEXT:    %r_3 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%r_1 : tensor<f32>) outs(%[[V7]] : tensor<f32>) {
// CHECK-NEXT:    ^bb0(%[[V17:[0-9]+]]: f32, %[[V18:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V19:[0-9]+]] = arith.divf %[[V18]], %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V19]] : f32
// CHECK-NEXT:    } -> tensor<f32>
// CHECK-NEXT:    func.return %r_2, %r_3 : tensor<?xf32>, tensor<f32>
// CHECK-NEXT:  }

// In place on memrefs: the output is the input's buffer.
func.func @softmax_in_place(%x: memref<2x2xf32>, %m: memref<2xf32>, %a: memref<2xf32>, %s: memref<2xf32>) {
  linalg_ext.softmax dimension(1) ins(%x : memref<2x2xf32>) outs(%x, %m, %a, %s : memref<2x2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
  return
}
// CHECK-LABEL: func.func @softmax_in_place(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : memref<2xf32>) outs(%s : memref<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32, %[[V1:[0-9]+]]: f32):
// CHECK-NEXT:      linalg.yield %[[V0]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.reduce { arith.maximumf } ins(%x : memref<2x2xf32>) outs(%m : memref<2xf32>) dimensions = [1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : memref<2x2xf32>, memref<2xf32>) outs(%x : memref<2x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = math.exp %[[V5]] : f32
// CHECK-NEXT:      linalg.yield %[[V6]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m : memref<2xf32>) outs(%a, %s : memref<2xf32>, memref<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V7:[0-9]+]]: f32, %[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.subf %[[V9]], %[[V7]] : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.exp %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.mulf %[[V8]], %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]], %[[V12]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.reduce { arith.addf } ins(%x : memref<2x2xf32>) outs(%a : memref<2xf32>) dimensions = [1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<2xf32>) outs(%x : memref<2x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V13:[0-9]+]]: f32, %[[V14:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V15:[0-9]+]] = arith.divf %[[V14]], %[[V13]] : f32
// CHECK-NEXT:      linalg.yield %[[V15]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<2xf32>) outs(%s : memref<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V16:[0-9]+]]: f32, %[[V17:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V18:[0-9]+]] = arith.divf %[[V17]], %[[V16]] : f32
// CHECK-NEXT:      linalg.yield %[[V18]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// The scale is a0 * exp(m0 - max) / sum, as docs/ops/softmax.md defines it;
// ByteIR's lowering multiplies by the sum instead. Here x = [[1, 2]], m0 = 3,
// a0 = 1: max = 3, sum = 1 + e^-2 + e^-1 = 1.5032, so the scale is
// 1 / 1.5032 = 0.6652 (the interpreter's value of the op, which
// test_pass_meaning compares with this output), where ByteIR gives 1.5032.
func.func @scale_divides() -> tensor<1xf32> {
  %x = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %m0 = arith.constant dense<3.0> : tensor<1xf32>
  %a0 = arith.constant dense<1.0> : tensor<1xf32>
  %o = tensor.empty() : tensor<1x2xf32>
  %s = tensor.empty() : tensor<1xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<1x2xf32>) outs(%o, %m0, %a0, %s : tensor<1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) : tensor<1x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  return %r#3 : tensor<1xf32>
}
// CHECK-LABEL: func.func @scale_divides(
// CHECK-NEXT:    %x = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK-NEXT:    %m0 = arith.constant dense<3.000000e+00> : tensor<1xf32>
// CHECK-NEXT:    %a0 = arith.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK-NEXT:    %o = tensor.empty() : tensor<1x2xf32>
// CHECK-NEXT:    %s = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:    %max_init = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m0 : tensor<1xf32>) outs(%s : tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32, %[[V1:[0-9]+]]: f32):
// CHECK-NEXT:      linalg.yield %[[V0]] : f32
// CHECK-NEXT:    } -> tensor<1xf32>
// CHECK-NEXT:    %r = linalg.reduce { arith.maximumf } ins(%x : tensor<1x2xf32>) outs(%m0 : tensor<1xf32>) dimensions = [1]
// CHECK-NEXT:    %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %r : tensor<1x2xf32>, tensor<1xf32>) outs(%o : tensor<1x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = math.exp %[[V5]] : f32
// CHECK-NEXT:      linalg.yield %[[V6]] : f32
// CHECK-NEXT:    } -> tensor<1x2xf32>
// CHECK-NEXT:    %kept, %[[V7:[0-9]+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r : tensor<1xf32>) outs(%a0, %max_init : tensor<1xf32>, tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32, %[[V10:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V11:[0-9]+]] = arith.subf %[[V10]], %[[V8]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = math.exp %[[V11]] : f32
// CHECK-NEXT:      %[[V13:[0-9]+]] = arith.mulf %[[V9]], %[[V12]] : f32
// CHECK-NEXT:      linalg.yield %[[V13]], %[[V13]] : f32, f32
// CHECK-NEXT:    } -> (tensor<1xf32>, tensor<1xf32>)
// CHECK-NEXT:    %r_1 = linalg.reduce { arith.addf } ins(%exp : tensor<1x2xf32>) outs(%kept : tensor<1xf32>) dimensions = [1]
// CHECK-NEXT:    %r_2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r_1 : tensor<1xf32>) outs(%exp : tensor<1x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V16:[0-9]+]] = arith.divf %[[V15]], %[[V14]] : f32
// CHECK-NEXT:      linalg.yield %[[V16]] : f32
// CHECK-NEXT:    } -> tensor<1x2xf32>
// CHECK-NEXT:    %r_3 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r_1 : tensor<1xf32>) outs(%[[V7]] : tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V17:[0-9]+]]: f32, %[[V18:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V19:[0-9]+]] = arith.divf %[[V18]], %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V19]] : f32
// CHECK-NEXT:    } -> tensor<1xf32>
// CHECK-NEXT:    func.return %r_3 : tensor<1xf32>
// CHECK-NEXT:  }

// Other linalg_ext ops stay.
func.func @others_stay(%v: tensor<3xf32>, %d: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = linalg_ext.diag ins(%v : tensor<3xf32>) outs(%d : tensor<3x3xf32>) : tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
// CHECK-LABEL: func.func @others_stay(
// CHECK-NEXT:    %r = linalg_ext.diag ins(%v : tensor<3xf32>) outs(%d : tensor<3x3xf32>) : tensor<3x3xf32>
// CHECK-NEXT:    func.return %r : tensor<3x3xf32>
// CHECK-NEXT:  }
