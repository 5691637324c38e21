// layer_norm: the sum over `axis` into zeros, divided by the count (the
// mean); the squared deviations summed by a reduction generic into zeros,
// then rstd = 1 / sqrt(var + epsilon); last the normalised output (times the
// weight, plus the bias). Without mean and rstd outputs both are fresh
// (tensor.empty, or memref.alloc freed at the end).
// RUN: xdsl-opt %s -p linalg-ext-to-linalg | filecheck %s

func.func @layer_norm_affine(%x: tensor<2x4xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %o = tensor.empty() : tensor<2x4xf32>
  %r = linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x, %w, %b : tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<2x4xf32>) : tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
// CHECK-LABEL: func.func @layer_norm_affine(
// CHECK-NEXT:    %o = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT:    %statistics = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %statistics_1 = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %count = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %epsilon = arith.constant 1.000000e-05 : f32
// CHECK-NEXT:    %zeros = linalg.fill ins(%zero : f32) outs(%statistics : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %sum = linalg.reduce { arith.addf } ins(%x : tensor<2x4xf32>) outs(%zeros : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT:    %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%sum : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V1:[0-9]+]] = arith.divf %[[V0]], %count : f32
// CHECK-NEXT:      linalg.yield %[[V1]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    %zeros_1 = linalg.fill ins(%zero : f32) outs(%statistics_1 : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %squares = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<2x4xf32>, tensor<2xf32>) outs(%zeros_1 : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = arith.mulf %[[V5]], %[[V5]] : f32
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.addf %[[V4]], %[[V6]] : f32
// CHECK-NEXT:      linalg.yield %[[V7]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%squares : tensor<2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V9:[0-9]+]] = arith.divf %[[V8]], %count : f32
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.addf %[[V9]], %epsilon : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.sqrt %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.divf %one, %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]] : f32
// CHECK-NEXT:    } -> tensor<2xf32>
// CHECK-NEXT:    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %rstd, %w, %b : tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<2x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[V13:[0-9]+]]: f32, %[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32, %[[V16:[0-9]+]]: f32, %[[V17:[0-9]+]]: f32, %[[V18:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V19:[0-9]+]] = arith.subf %[[V13]], %[[V14]] : f32
// CHECK-NEXT:      %[[V20:[0-9]+]] = arith.mulf %[[V19]], %[[V15]] : f32
// CHECK-NEXT:      %[[V21:[0-9]+]] = arith.mulf %[[V20]], %[[V16]] : f32
// CHECK-NEXT:      %[[V22:[0-9]+]] = arith.addf %[[V21]], %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V22]] : f32
// CHECK-NEXT:    } -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %r : tensor<2x4xf32>
// CHECK-NEXT:  }

// With mean and rstd outputs, on tensors: they are the op's second and third
// results.
func.func @layer_norm_statistics(%x: tensor<3x2xf32>, %o: tensor<3x2xf32>, %mean: tensor<3xf32>, %rstd: tensor<3xf32>) -> (tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>) {
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(0.000000e+00) ins(%x : tensor<3x2xf32>) outs(%o, %mean, %rstd : tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>) : tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>
  return %r#0, %r#1, %r#2 : tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>
}
// CHECK-LABEL: func.func @layer_norm_statistics(
// CHECK-NEXT:    %count = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %epsilon = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %zeros = linalg.fill ins(%zero : f32) outs(%mean : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %sum = linalg.reduce { arith.addf } ins(%x : tensor<3x2xf32>) outs(%zeros : tensor<3xf32>) dimensions = [1]
// CHECK-NEXT:    %mean_1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%sum : tensor<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V1:[0-9]+]] = arith.divf %[[V0]], %count : f32
// CHECK-NEXT:      linalg.yield %[[V1]] : f32
// CHECK-NEXT:    } -> tensor<3xf32>
// CHECK-NEXT:    %zeros_1 = linalg.fill ins(%zero : f32) outs(%rstd : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %squares = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean_1 : tensor<3x2xf32>, tensor<3xf32>) outs(%zeros_1 : tensor<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = arith.mulf %[[V5]], %[[V5]] : f32
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.addf %[[V4]], %[[V6]] : f32
// CHECK-NEXT:      linalg.yield %[[V7]] : f32
// CHECK-NEXT:    } -> tensor<3xf32>
// CHECK-NEXT:    %rstd_1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%squares : tensor<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V9:[0-9]+]] = arith.divf %[[V8]], %count : f32
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.addf %[[V9]], %epsilon : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.sqrt %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.divf %one, %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]] : f32
// CHECK-NEXT:    } -> tensor<3xf32>
// CHECK-NEXT:    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean_1, %rstd_1 : tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>) outs(%o : tensor<3x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V13:[0-9]+]]: f32, %[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32, %[[V16:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V17:[0-9]+]] = arith.subf %[[V13]], %[[V14]] : f32
// CHECK-NEXT:      %[[V18:[0-9]+]] = arith.mulf %[[V17]], %[[V15]] : f32
// CHECK-NEXT:      linalg.yield %[[V18]] : f32
// CHECK-NEXT:    } -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %r, %mean_1, %rstd_1 : tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>
// CHECK-NEXT:  }

// On memrefs, over two axes, one of dynamic extent, in
// place (the output is the input's buffer), without mean and rstd: they are
// allocated and freed; the count is computed from the extents.
func.func @layer_norm_in_place(%x: memref<2x?x3xf32>) {
  linalg_ext.layer_norm axis([0, 1]) epsilon(1.000000e-05) ins(%x : memref<2x?x3xf32>) outs(%x : memref<2x?x3xf32>)
  return
}
// CHECK-LABEL: func.func @layer_norm_in_place(
// CHECK-NEXT:    %mean = memref.alloc() : memref<3xf32>
// CHECK-NEXT:    %rstd = memref.alloc() : memref<3xf32>
// CHECK-NEXT:    %[[V0:[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[V1:[0-9]+]] = memref.dim %x, %[[V0]] : memref<2x?x3xf32>
// CHECK-NEXT:    %[[V2:[0-9]+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[V3:[0-9]+]] = memref.dim %x, %[[V2]] : memref<2x?x3xf32>
// CHECK-NEXT:    %[[V4:[0-9]+]] = arith.muli %[[V1]], %[[V3]] : index
// CHECK-NEXT:    %[[V5:[0-9]+]] = arith.index_cast %[[V4]] : index to i64
// CHECK-NEXT:    %count = arith.sitofp %[[V5]] : i64 to f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %epsilon = arith.constant 1.000000e-05 : f32
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%mean : memref<3xf32>)
// CHECK-NEXT:    linalg.reduce { arith.addf } ins(%x : memref<2x?x3xf32>) outs(%mean : memref<3xf32>) dimensions = [0, 1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%mean : memref<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V6:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.divf %[[V6]], %count : f32
// CHECK-NEXT:      linalg.yield %[[V7]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%rstd : memref<3xf32>)
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%x, %mean : memref<2x?x3xf32>, memref<3xf32>) outs(%rstd : memref<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32, %[[V9:[0-9]+]]: f32, %[[V10:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V11:[0-9]+]] = arith.subf %[[V8]], %[[V9]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.mulf %[[V11]], %[[V11]] : f32
// CHECK-NEXT:      %[[V13:[0-9]+]] = arith.addf %[[V10]], %[[V12]] : f32
// CHECK-NEXT:      linalg.yield %[[V13]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%rstd : memref<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V14:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V15:[0-9]+]] = arith.divf %[[V14]], %count : f32
// CHECK-NEXT:      %[[V16:[0-9]+]] = arith.addf %[[V15]], %epsilon : f32
// CHECK-NEXT:      %[[V17:[0-9]+]] = math.sqrt %[[V16]] : f32
// CHECK-NEXT:      %[[V18:[0-9]+]] = arith.divf %one, %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V18]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mean, %rstd : memref<2x?x3xf32>, memref<3xf32>, memref<3xf32>) outs(%x : memref<2x?x3xf32>) {
// CHECK-NEXT:    ^bb0(%[[V19:[0-9]+]]: f32, %[[V20:[0-9]+]]: f32, %[[V21:[0-9]+]]: f32, %[[V22:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V23:[0-9]+]] = arith.subf %[[V19]], %[[V20]] : f32
// CHECK-NEXT:      %[[V24:[0-9]+]] = arith.mulf %[[V23]], %[[V21]] : f32
// CHECK-NEXT:      linalg.yield %[[V24]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %mean : memref<3xf32>
// CHECK-NEXT:    memref.dealloc %rstd : memref<3xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Every dimension normalised, on memrefs with all outputs: the statistics are
// 0-d.
func.func @layer_norm_all(%x: memref<3x2xf32>, %w: memref<3x2xf32>, %b: memref<3x2xf32>, %o: memref<3x2xf32>, %mean: memref<f32>, %rstd: memref<f32>) {
  linalg_ext.layer_norm axis([0, 1]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<3x2xf32>, memref<3x2xf32>, memref<3x2xf32>) outs(%o, %mean, %rstd : memref<3x2xf32>, memref<f32>, memref<f32>)
  return
}
// CHECK-LABEL: func.func @layer_norm_all(
// CHECK-NEXT:    %count = arith.constant 6.000000e+00 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %epsilon = arith.constant 1.000000e-05 : f32
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%mean : memref<f32>)
// CHECK-NEXT:    linalg.reduce { arith.addf } ins(%x : memref<3x2xf32>) outs(%mean : memref<f32>) dimensions = [0, 1]
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%mean : memref<f32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V1:[0-9]+]] = arith.divf %[[V0]], %count : f32
// CHECK-NEXT:      linalg.yield %[[V1]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%rstd : memref<f32>)
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%x, %mean : memref<3x2xf32>, memref<f32>) outs(%rstd : memref<f32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = arith.mulf %[[V5]], %[[V5]] : f32
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.addf %[[V4]], %[[V6]] : f32
// CHECK-NEXT:      linalg.yield %[[V7]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%rstd : memref<f32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V9:[0-9]+]] = arith.divf %[[V8]], %count : f32
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.addf %[[V9]], %epsilon : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.sqrt %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.divf %one, %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %rstd, %w, %b : memref<3x2xf32>, memref<f32>, memref<f32>, memref<3x2xf32>, memref<3x2xf32>) outs(%o : memref<3x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[V13:[0-9]+]]: f32, %[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32, %[[V16:[0-9]+]]: f32, %[[V17:[0-9]+]]: f32, %[[V18:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V19:[0-9]+]] = arith.subf %[[V13]], %[[V14]] : f32
// CHECK-NEXT:      %[[V20:[0-9]+]] = arith.mulf %[[V19]], %[[V15]] : f32
// CHECK-NEXT:      %[[V21:[0-9]+]] = arith.mulf %[[V20]], %[[V16]] : f32
// CHECK-NEXT:      %[[V22:[0-9]+]] = arith.addf %[[V21]], %[[V17]] : f32
// CHECK-NEXT:      linalg.yield %[[V22]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// The variance is the mean of the squared deviations, as the op defines it.
// ByteIR's lowering computes E[x²] − mean², which cancels: here, in f32,
// that is 0 (rstd = inf) where the variance is 1.25 and rstd 0.8944 (the
// interpreter's value of the op, which test_pass_meaning compares with this
// output).
func.func @variance_without_cancellation() -> tensor<1xf32> {
  %x = arith.constant dense<[[10000.0, 10001.0, 10002.0, 10003.0]]> : tensor<1x4xf32>
  %o = tensor.empty() : tensor<1x4xf32>
  %m = tensor.empty() : tensor<1xf32>
  %s = tensor.empty() : tensor<1xf32>
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(0.000000e+00) ins(%x : tensor<1x4xf32>) outs(%o, %m, %s : tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>) : tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>
  return %r#2 : tensor<1xf32>
}
// CHECK-LABEL: func.func @variance_without_cancellation(
// CHECK-NEXT:    %x = arith.constant dense<{{\[\[}}1.000000e+04, 1.000100e+04, 1.000200e+04, 1.000300e+04]]> : tensor<1x4xf32>
// CHECK-NEXT:    %o = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT:    %m = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:    %s = tensor.empty() : tensor<1xf32>
// CHECK-NEXT:    %count = arith.constant 4.000000e+00 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %epsilon = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %zeros = linalg.fill ins(%zero : f32) outs(%m : tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:    %sum = linalg.reduce { arith.addf } ins(%x : tensor<1x4xf32>) outs(%zeros : tensor<1xf32>) dimensions = [1]
// CHECK-NEXT:    %mean = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%sum : tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V0:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V1:[0-9]+]] = arith.divf %[[V0]], %count : f32
// CHECK-NEXT:      linalg.yield %[[V1]] : f32
// CHECK-NEXT:    } -> tensor<1xf32>
// CHECK-NEXT:    %zeros_1 = linalg.fill ins(%zero : f32) outs(%s : tensor<1xf32>) -> tensor<1xf32>
// CHECK-NEXT:    %squares = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<1x4xf32>, tensor<1xf32>) outs(%zeros_1 : tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V2:[0-9]+]]: f32, %[[V3:[0-9]+]]: f32, %[[V4:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V5:[0-9]+]] = arith.subf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:      %[[V6:[0-9]+]] = arith.mulf %[[V5]], %[[V5]] : f32
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.addf %[[V4]], %[[V6]] : f32
// CHECK-NEXT:      linalg.yield %[[V7]] : f32
// CHECK-NEXT:    } -> tensor<1xf32>
// CHECK-NEXT:    %rstd = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%squares : tensor<1xf32>) {
// CHECK-NEXT:    ^bb0(%[[V8:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V9:[0-9]+]] = arith.divf %[[V8]], %count : f32
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.addf %[[V9]], %epsilon : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.sqrt %[[V10]] : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = arith.divf %one, %[[V11]] : f32
// CHECK-NEXT:      linalg.yield %[[V12]] : f32
// CHECK-NEXT:    } -> tensor<1xf32>
// CHECK-NEXT:    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %mean, %rstd : tensor<1x4xf32>, tensor<1xf32>, tensor<1xf32>) outs(%o : tensor<1x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[V13:[0-9]+]]: f32, %[[V14:[0-9]+]]: f32, %[[V15:[0-9]+]]: f32, %[[V16:[0-9]+]]: f32):
// CHECK-NEXT:      %[[V17:[0-9]+]] = arith.subf %[[V13]], %[[V14]] : f32
// CHECK-NEXT:      %[[V18:[0-9]+]] = arith.mulf %[[V17]], %[[V15]] : f32
// CHECK-NEXT:      linalg.yield %[[V18]] : f32
// CHECK-NEXT:    } -> tensor<1x4xf32>
// CHECK-NEXT:    func.return %rstd : tensor<1xf32>
// CHECK-NEXT:  }
