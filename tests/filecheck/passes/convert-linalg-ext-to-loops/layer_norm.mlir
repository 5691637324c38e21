// layer_norm: per position outside `axis`, the sum and then the sum of
// squared deviations carried through the `axis` loops, the mean, variance
// and rstd = 1 / sqrt(var + epsilon), then the normalised output (times the
// weight, plus the bias); mean and rstd stored when asked for.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @layer_norm_affine(%x: memref<3x8xf32>, %w: memref<8xf32>, %b: memref<8xf32>, %o: memref<3x8xf32>, %mean: memref<3xf32>, %rstd: memref<3xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<3x8xf32>, memref<8xf32>, memref<8xf32>) outs(%o, %mean, %rstd : memref<3x8xf32>, memref<3xf32>, memref<3xf32>)
  func.return
}
// CHECK-LABEL: func.func @layer_norm_affine(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c8 = arith.constant 8 : index
// CHECK-NEXT:    %cst = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %cst_3 = arith.constant 1.000000e-05 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %sum = scf.for %a = %c0 to %c8 step %c1 iter_args(%[[V0:[0-9]+]] = %cst_1) -> (f32) {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %x[%i, %a] : memref<3x8xf32>
// CHECK-NEXT:        %[[V2:[0-9]+]] = arith.addf %[[V0]], %[[V1]] : f32
// CHECK-NEXT:        scf.yield %[[V2]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %mean_1 = arith.divf %sum, %cst : f32
// CHECK-NEXT:      %squares = scf.for %a_1 = %c0 to %c8 step %c1 iter_args(%[[V3:[0-9]+]] = %cst_1) -> (f32) {
// CHECK-NEXT:        %[[V4:[0-9]+]] = memref.load %x[%i, %a_1] : memref<3x8xf32>
// CHECK-NEXT:        %[[V5:[0-9]+]] = arith.subf %[[V4]], %mean_1 : f32
// CHECK-NEXT:        %[[V6:[0-9]+]] = arith.mulf %[[V5]], %[[V5]] : f32
// CHECK-NEXT:        %[[V7:[0-9]+]] = arith.addf %[[V3]], %[[V6]] : f32
// CHECK-NEXT:        scf.yield %[[V7]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %variance = arith.divf %squares, %cst : f32
// CHECK-NEXT:      %[[V8:[0-9]+]] = arith.addf %variance, %cst_3 : f32
// CHECK-NEXT:      %[[V9:[0-9]+]] = math.sqrt %[[V8]] : f32
// CHECK-NEXT:      %rstd_1 = arith.divf %cst_2, %[[V9]] : f32
// CHECK-NEXT:      scf.for %a_2 = %c0 to %c8 step %c1 {
// CHECK-NEXT:        %[[V10:[0-9]+]] = memref.load %x[%i, %a_2] : memref<3x8xf32>
// CHECK-NEXT:        %[[V11:[0-9]+]] = arith.subf %[[V10]], %mean_1 : f32
// CHECK-NEXT:        %[[V12:[0-9]+]] = arith.mulf %[[V11]], %rstd_1 : f32
// CHECK-NEXT:        %[[V13:[0-9]+]] = memref.load %w[%a_2] : memref<8xf32>
// CHECK-NEXT:        %[[V14:[0-9]+]] = arith.mulf %[[V12]], %[[V13]] : f32
// CHECK-NEXT:        %[[V15:[0-9]+]] = memref.load %b[%a_2] : memref<8xf32>
// CHECK-NEXT:        %[[V16:[0-9]+]] = arith.addf %[[V14]], %[[V15]] : f32
// CHECK-NEXT:        memref.store %[[V16]], %o[%i, %a_2] : memref<3x8xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %mean_1, %mean[%i] : memref<3xf32>
// CHECK-NEXT:      memref.store %rstd_1, %rstd[%i] : memref<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Two axes that are not adjacent: the reductions run through two nested
// loops.
func.func @layer_norm_outer_axes(%x: memref<2x3x4xf32>, %o: memref<2x3x4xf32>, %mean: memref<3xf32>, %rstd: memref<3xf32>) {
  linalg_ext.layer_norm axis([0, 2]) epsilon(0.000000e+00) ins(%x : memref<2x3x4xf32>) outs(%o, %mean, %rstd : memref<2x3x4xf32>, memref<3xf32>, memref<3xf32>)
  func.return
}
// CHECK-LABEL: func.func @layer_norm_outer_axes(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %cst = arith.constant 8.000000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %sum = scf.for %a = %c0 to %c2 step %c1 iter_args(%[[V0:[0-9]+]] = %cst_1) -> (f32) {
// CHECK-NEXT:        %sum_1 = scf.for %a_1 = %c0 to %c4 step %c1 iter_args(%[[V1:[0-9]+]] = %[[V0]]) -> (f32) {
// CHECK-NEXT:          %[[V2:[0-9]+]] = memref.load %x[%a, %i, %a_1] : memref<2x3x4xf32>
// CHECK-NEXT:          %[[V3:[0-9]+]] = arith.addf %[[V1]], %[[V2]] : f32
// CHECK-NEXT:          scf.yield %[[V3]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %sum_1 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %mean_1 = arith.divf %sum, %cst : f32
// CHECK-NEXT:      %squares = scf.for %a_2 = %c0 to %c2 step %c1 iter_args(%[[V4:[0-9]+]] = %cst_1) -> (f32) {
// CHECK-NEXT:        %squares_1 = scf.for %a_3 = %c0 to %c4 step %c1 iter_args(%[[V5:[0-9]+]] = %[[V4]]) -> (f32) {
// CHECK-NEXT:          %[[V6:[0-9]+]] = memref.load %x[%a_2, %i, %a_3] : memref<2x3x4xf32>
// CHECK-NEXT:          %[[V7:[0-9]+]] = arith.subf %[[V6]], %mean_1 : f32
// CHECK-NEXT:          %[[V8:[0-9]+]] = arith.mulf %[[V7]], %[[V7]] : f32
// CHECK-NEXT:          %[[V9:[0-9]+]] = arith.addf %[[V5]], %[[V8]] : f32
// CHECK-NEXT:          scf.yield %[[V9]] : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %squares_1 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %variance = arith.divf %squares, %cst : f32
// CHECK-NEXT:      %[[V10:[0-9]+]] = arith.addf %variance, %cst_1 : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = math.sqrt %[[V10]] : f32
// CHECK-NEXT:      %rstd_1 = arith.divf %cst_2, %[[V11]] : f32
// CHECK-NEXT:      scf.for %a_4 = %c0 to %c2 step %c1 {
// CHECK-NEXT:        scf.for %a_5 = %c0 to %c4 step %c1 {
// CHECK-NEXT:          %[[V12:[0-9]+]] = memref.load %x[%a_4, %i, %a_5] : memref<2x3x4xf32>
// CHECK-NEXT:          %[[V13:[0-9]+]] = arith.subf %[[V12]], %mean_1 : f32
// CHECK-NEXT:          %[[V14:[0-9]+]] = arith.mulf %[[V13]], %rstd_1 : f32
// CHECK-NEXT:          memref.store %[[V14]], %o[%a_4, %i, %a_5] : memref<2x3x4xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %mean_1, %mean[%i] : memref<3xf32>
// CHECK-NEXT:      memref.store %rstd_1, %rstd[%i] : memref<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Dynamic shapes, output only.
func.func @layer_norm_dynamic(%x: memref<?x?xf32>, %o: memref<?x?xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.000000e-03) ins(%x : memref<?x?xf32>) outs(%o : memref<?x?xf32>)
  func.return
}
// CHECK-LABEL: func.func @layer_norm_dynamic(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c0 : memref<?x?xf32>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[V1:[0-9]+]] = memref.dim %x, %c1 : memref<?x?xf32>
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %cst_1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %cst_2 = arith.constant 1.000000e-03 : f32
// CHECK-NEXT:    %[[V2:[0-9]+]] = arith.index_cast %[[V1]] : index to i64
// CHECK-NEXT:    %count = arith.sitofp %[[V2]] : i64 to f32
// CHECK-NEXT:    scf.for %i = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:      %sum = scf.for %a = %c0 to %[[V1]] step %c1 iter_args(%[[V3:[0-9]+]] = %cst) -> (f32) {
// CHECK-NEXT:        %[[V4:[0-9]+]] = memref.load %x[%i, %a] : memref<?x?xf32>
// CHECK-NEXT:        %[[V5:[0-9]+]] = arith.addf %[[V3]], %[[V4]] : f32
// CHECK-NEXT:        scf.yield %[[V5]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %mean = arith.divf %sum, %count : f32
// CHECK-NEXT:      %squares = scf.for %a_1 = %c0 to %[[V1]] step %c1 iter_args(%[[V6:[0-9]+]] = %cst) -> (f32) {
// CHECK-NEXT:        %[[V7:[0-9]+]] = memref.load %x[%i, %a_1] : memref<?x?xf32>
// CHECK-NEXT:        %[[V8:[0-9]+]] = arith.subf %[[V7]], %mean : f32
// CHECK-NEXT:        %[[V9:[0-9]+]] = arith.mulf %[[V8]], %[[V8]] : f32
// CHECK-NEXT:        %[[V10:[0-9]+]] = arith.addf %[[V6]], %[[V9]] : f32
// CHECK-NEXT:        scf.yield %[[V10]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %variance = arith.divf %squares, %count : f32
// CHECK-NEXT:      %[[V11:[0-9]+]] = arith.addf %variance, %cst_2 : f32
// CHECK-NEXT:      %[[V12:[0-9]+]] = math.sqrt %[[V11]] : f32
// CHECK-NEXT:      %rstd = arith.divf %cst_1, %[[V12]] : f32
// CHECK-NEXT:      scf.for %a_2 = %c0 to %[[V1]] step %c1 {
// CHECK-NEXT:        %[[V13:[0-9]+]] = memref.load %x[%i, %a_2] : memref<?x?xf32>
// CHECK-NEXT:        %[[V14:[0-9]+]] = arith.subf %[[V13]], %mean : f32
// CHECK-NEXT:        %[[V15:[0-9]+]] = arith.mulf %[[V14]], %rstd : f32
// CHECK-NEXT:        memref.store %[[V15]], %o[%i, %a_2] : memref<?x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// f64, the two last axes with a 2-D weight and bias.
func.func @layer_norm_f64(%x: memref<2x3x?xf64>, %w: memref<3x?xf64>, %b: memref<3x?xf64>, %o: memref<2x3x?xf64>) {
  linalg_ext.layer_norm axis([1, 2]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<2x3x?xf64>, memref<3x?xf64>, memref<3x?xf64>) outs(%o : memref<2x3x?xf64>)
  func.return
}
// CHECK-LABEL: func.func @layer_norm_f64(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c2 : memref<2x3x?xf64>
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %cst_1 = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %cst_2 = arith.constant 1.000000e-05 : f64
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[V1:[0-9]+]] = arith.muli %c3, %[[V0]] : index
// CHECK-NEXT:    %[[V2:[0-9]+]] = arith.index_cast %[[V1]] : index to i64
// CHECK-NEXT:    %count = arith.sitofp %[[V2]] : i64 to f64
// CHECK-NEXT:    scf.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %sum = scf.for %a = %c0 to %c3 step %c1 iter_args(%[[V3:[0-9]+]] = %cst) -> (f64) {
// CHECK-NEXT:        %sum_1 = scf.for %a_1 = %c0 to %[[V0]] step %c1 iter_args(%[[V4:[0-9]+]] = %[[V3]]) -> (f64) {
// CHECK-NEXT:          %[[V5:[0-9]+]] = memref.load %x[%i, %a, %a_1] : memref<2x3x?xf64>
// CHECK-NEXT:          %[[V6:[0-9]+]] = arith.addf %[[V4]], %[[V5]] : f64
// CHECK-NEXT:          scf.yield %[[V6]] : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %sum_1 : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      %mean = arith.divf %sum, %count : f64
// CHECK-NEXT:      %squares = scf.for %a_2 = %c0 to %c3 step %c1 iter_args(%[[V7:[0-9]+]] = %cst) -> (f64) {
// CHECK-NEXT:        %squares_1 = scf.for %a_3 = %c0 to %[[V0]] step %c1 iter_args(%[[V8:[0-9]+]] = %[[V7]]) -> (f64) {
// CHECK-NEXT:          %[[V9:[0-9]+]] = memref.load %x[%i, %a_2, %a_3] : memref<2x3x?xf64>
// CHECK-NEXT:          %[[V10:[0-9]+]] = arith.subf %[[V9]], %mean : f64
// CHECK-NEXT:          %[[V11:[0-9]+]] = arith.mulf %[[V10]], %[[V10]] : f64
// CHECK-NEXT:          %[[V12:[0-9]+]] = arith.addf %[[V8]], %[[V11]] : f64
// CHECK-NEXT:          scf.yield %[[V12]] : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %squares_1 : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      %variance = arith.divf %squares, %count : f64
// CHECK-NEXT:      %[[V13:[0-9]+]] = arith.addf %variance, %cst_2 : f64
// CHECK-NEXT:      %[[V14:[0-9]+]] = math.sqrt %[[V13]] : f64
// CHECK-NEXT:      %rstd = arith.divf %cst_1, %[[V14]] : f64
// CHECK-NEXT:      scf.for %a_4 = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %a_5 = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:          %[[V15:[0-9]+]] = memref.load %x[%i, %a_4, %a_5] : memref<2x3x?xf64>
// CHECK-NEXT:          %[[V16:[0-9]+]] = arith.subf %[[V15]], %mean : f64
// CHECK-NEXT:          %[[V17:[0-9]+]] = arith.mulf %[[V16]], %rstd : f64
// CHECK-NEXT:          %[[V18:[0-9]+]] = memref.load %w[%a_4, %a_5] : memref<3x?xf64>
// CHECK-NEXT:          %[[V19:[0-9]+]] = arith.mulf %[[V17]], %[[V18]] : f64
// CHECK-NEXT:          %[[V20:[0-9]+]] = memref.load %b[%a_4, %a_5] : memref<3x?xf64>
// CHECK-NEXT:          %[[V21:[0-9]+]] = arith.addf %[[V19]], %[[V20]] : f64
// CHECK-NEXT:          memref.store %[[V21]], %o[%i, %a_4, %a_5] : memref<2x3x?xf64>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
