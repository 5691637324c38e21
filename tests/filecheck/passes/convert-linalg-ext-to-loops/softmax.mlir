// softmax and unnorm_softmax: per row along `dimension`, the max carried
// from the max init, then the exponentials (x - max) written to the output
// while their sum is carried, then (softmax only) the output divided by the
// new sum in place; scale, max and sum stored once per row.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @softmax_rows(%x: memref<3x5xf32>, %o: memref<3x5xf32>, %m: memref<3xf32>, %a: memref<3xf32>, %s: memref<3xf32>) {
  linalg_ext.softmax dimension(1) ins(%x : memref<3x5xf32>) outs(%o, %m, %a, %s : memref<3x5xf32>, memref<3xf32>, memref<3xf32>, memref<3xf32>)
  func.return
}
// CHECK-LABEL: func.func @softmax_rows(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %max_in = memref.load %m[%i] : memref<3xf32>
// CHECK-NEXT:      %sum_in = memref.load %a[%i] : memref<3xf32>
// CHECK-NEXT:      %max = scf.for %k = %c0 to %c5 step %c1 iter_args(%[[V0:[0-9]+]] = %max_in) -> (f32) {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %x[%i, %k] : memref<3x5xf32>
// CHECK-NEXT:        %[[V2:[0-9]+]] = arith.maximumf %[[V0]], %[[V1]] : f32
// CHECK-NEXT:        scf.yield %[[V2]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %exp_sum = scf.for %k_1 = %c0 to %c5 step %c1 iter_args(%[[V3:[0-9]+]] = %cst) -> (f32) {
// CHECK-NEXT:        %[[V4:[0-9]+]] = memref.load %x[%i, %k_1] : memref<3x5xf32>
// CHECK-NEXT:        %[[V5:[0-9]+]] = arith.subf %[[V4]], %max : f32
// CHECK-NEXT:        %exp = math.exp %[[V5]] : f32
// CHECK-NEXT:        memref.store %exp, %o[%i, %k_1] : memref<3x5xf32>
// CHECK-NEXT:        %[[V6:[0-9]+]] = arith.addf %[[V3]], %exp : f32
// CHECK-NEXT:        scf.yield %[[V6]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.subf %max_in, %max : f32
// CHECK-NEXT:      %decay = math.exp %[[V7]] : f32
// CHECK-NEXT:      %kept = arith.mulf %sum_in, %decay : f32
// CHECK-NEXT:      %sum = arith.addf %kept, %exp_sum : f32
// CHECK-NEXT:      scf.for %k_2 = %c0 to %c5 step %c1 {
// CHECK-NEXT:        %[[V8:[0-9]+]] = memref.load %o[%i, %k_2] : memref<3x5xf32>
// CHECK-NEXT:        %[[V9:[0-9]+]] = arith.divf %[[V8]], %sum : f32
// CHECK-NEXT:        memref.store %[[V9]], %o[%i, %k_2] : memref<3x5xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %scale = arith.divf %kept, %sum : f32
// CHECK-NEXT:      memref.store %scale, %s[%i] : memref<3xf32>
// CHECK-NEXT:      memref.store %max, %m[%i] : memref<3xf32>
// CHECK-NEXT:      memref.store %sum, %a[%i] : memref<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Reduced over dimension 0 of a dynamic shape: the extents come from
// memref.dim where no operand knows them.
func.func @softmax_columns_dynamic(%x: memref<?x?xf32>, %o: memref<?x?xf32>, %m: memref<?xf32>, %a: memref<?xf32>, %s: memref<?xf32>) {
  linalg_ext.softmax dimension(0) ins(%x : memref<?x?xf32>) outs(%o, %m, %a, %s : memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>)
  func.return
}
// CHECK-LABEL: func.func @softmax_columns_dynamic(
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c1 : memref<?x?xf32>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V1:[0-9]+]] = memref.dim %x, %c0 : memref<?x?xf32>
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    scf.for %i = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:      %max_in = memref.load %m[%i] : memref<?xf32>
// CHECK-NEXT:      %sum_in = memref.load %a[%i] : memref<?xf32>
// CHECK-NEXT:      %max = scf.for %k = %c0 to %[[V1]] step %c1 iter_args(%[[V2:[0-9]+]] = %max_in) -> (f32) {
// CHECK-NEXT:        %[[V3:[0-9]+]] = memref.load %x[%k, %i] : memref<?x?xf32>
// CHECK-NEXT:        %[[V4:[0-9]+]] = arith.maximumf %[[V2]], %[[V3]] : f32
// CHECK-NEXT:        scf.yield %[[V4]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %exp_sum = scf.for %k_1 = %c0 to %[[V1]] step %c1 iter_args(%[[V5:[0-9]+]] = %cst) -> (f32) {
// CHECK-NEXT:        %[[V6:[0-9]+]] = memref.load %x[%k_1, %i] : memref<?x?xf32>
// CHECK-NEXT:        %[[V7:[0-9]+]] = arith.subf %[[V6]], %max : f32
// CHECK-NEXT:        %exp = math.exp %[[V7]] : f32
// CHECK-NEXT:        memref.store %exp, %o[%k_1, %i] : memref<?x?xf32>
// CHECK-NEXT:        %[[V8:[0-9]+]] = arith.addf %[[V5]], %exp : f32
// CHECK-NEXT:        scf.yield %[[V8]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[V9:[0-9]+]] = arith.subf %max_in, %max : f32
// CHECK-NEXT:      %decay = math.exp %[[V9]] : f32
// CHECK-NEXT:      %kept = arith.mulf %sum_in, %decay : f32
// CHECK-NEXT:      %sum = arith.addf %kept, %exp_sum : f32
// CHECK-NEXT:      scf.for %k_2 = %c0 to %[[V1]] step %c1 {
// CHECK-NEXT:        %[[V10:[0-9]+]] = memref.load %o[%k_2, %i] : memref<?x?xf32>
// CHECK-NEXT:        %[[V11:[0-9]+]] = arith.divf %[[V10]], %sum : f32
// CHECK-NEXT:        memref.store %[[V11]], %o[%k_2, %i] : memref<?x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %scale = arith.divf %kept, %sum : f32
// CHECK-NEXT:      memref.store %scale, %s[%i] : memref<?xf32>
// CHECK-NEXT:      memref.store %max, %m[%i] : memref<?xf32>
// CHECK-NEXT:      memref.store %sum, %a[%i] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Rank 1: the statistics are rank-0 memrefs, read and written once.
func.func @unnorm_softmax_vector(%x: memref<?xf32>, %o: memref<?xf32>, %m: memref<f32>, %a: memref<f32>, %s: memref<f32>) {
  linalg_ext.unnorm_softmax dimension(0) ins(%x : memref<?xf32>) outs(%o, %m, %a, %s : memref<?xf32>, memref<f32>, memref<f32>, memref<f32>)
  func.return
}
// CHECK-LABEL: func.func @unnorm_softmax_vector(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c0 : memref<?xf32>
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %max_in = memref.load %m[] : memref<f32>
// CHECK-NEXT:    %sum_in = memref.load %a[] : memref<f32>
// CHECK-NEXT:    %max = scf.for %k = %c0 to %[[V0]] step %c1 iter_args(%[[V1:[0-9]+]] = %max_in) -> (f32) {
// CHECK-NEXT:      %[[V2:[0-9]+]] = memref.load %x[%k] : memref<?xf32>
// CHECK-NEXT:      %[[V3:[0-9]+]] = arith.maximumf %[[V1]], %[[V2]] : f32
// CHECK-NEXT:      scf.yield %[[V3]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %exp_sum = scf.for %k_1 = %c0 to %[[V0]] step %c1 iter_args(%[[V4:[0-9]+]] = %cst) -> (f32) {
// CHECK-NEXT:      %[[V5:[0-9]+]] = memref.load %x[%k_1] : memref<?xf32>
// CHECK-NEXT:      %[[V6:[0-9]+]] = arith.subf %[[V5]], %max : f32
// CHECK-NEXT:      %exp = math.exp %[[V6]] : f32
// CHECK-NEXT:      memref.store %exp, %o[%k_1] : memref<?xf32>
// CHECK-NEXT:      %[[V7:[0-9]+]] = arith.addf %[[V4]], %exp : f32
// CHECK-NEXT:      scf.yield %[[V7]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[V8:[0-9]+]] = arith.subf %max_in, %max : f32
// CHECK-NEXT:    %decay = math.exp %[[V8]] : f32
// CHECK-NEXT:    %kept = arith.mulf %sum_in, %decay : f32
// CHECK-NEXT:    %sum = arith.addf %kept, %exp_sum : f32
// CHECK-NEXT:    memref.store %decay, %s[] : memref<f32>
// CHECK-NEXT:    memref.store %max, %m[] : memref<f32>
// CHECK-NEXT:    memref.store %sum, %a[] : memref<f32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// The middle dimension of three, in f64; a static extent of one operand
// serves for a dynamic one of another.
func.func @unnorm_softmax_middle(%x: memref<4x?x3xf64>, %o: memref<4x4x3xf64>, %m: memref<?x3xf64>, %a: memref<4x3xf64>, %s: memref<4x3xf64>) {
  linalg_ext.unnorm_softmax dimension(1) ins(%x : memref<4x?x3xf64>) outs(%o, %m, %a, %s : memref<4x4x3xf64>, memref<?x3xf64>, memref<4x3xf64>, memref<4x3xf64>)
  func.return
}
// CHECK-LABEL: func.func @unnorm_softmax_middle(
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %i_1 = %c0 to %c3 step %c1 {
// CHECK-NEXT:        %max_in = memref.load %m[%i, %i_1] : memref<?x3xf64>
// CHECK-NEXT:        %sum_in = memref.load %a[%i, %i_1] : memref<4x3xf64>
// CHECK-NEXT:        %max = scf.for %k = %c0 to %c4 step %c1 iter_args(%[[V0:[0-9]+]] = %max_in) -> (f64) {
// CHECK-NEXT:          %[[V1:[0-9]+]] = memref.load %x[%i, %k, %i_1] : memref<4x?x3xf64>
// CHECK-NEXT:          %[[V2:[0-9]+]] = arith.maximumf %[[V0]], %[[V1]] : f64
// CHECK-NEXT:          scf.yield %[[V2]] : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        %exp_sum = scf.for %k_1 = %c0 to %c4 step %c1 iter_args(%[[V3:[0-9]+]] = %cst) -> (f64) {
// CHECK-NEXT:          %[[V4:[0-9]+]] = memref.load %x[%i, %k_1, %i_1] : memref<4x?x3xf64>
// CHECK-NEXT:          %[[V5:[0-9]+]] = arith.subf %[[V4]], %max : f64
// CHECK-NEXT:          %exp = math.exp %[[V5]] : f64
// CHECK-NEXT:          memref.store %exp, %o[%i, %k_1, %i_1] : memref<4x4x3xf64>
// CHECK-NEXT:          %[[V6:[0-9]+]] = arith.addf %[[V3]], %exp : f64
// CHECK-NEXT:          scf.yield %[[V6]] : f64
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[V7:[0-9]+]] = arith.subf %max_in, %max : f64
// CHECK-NEXT:        %decay = math.exp %[[V7]] : f64
// CHECK-NEXT:        %kept = arith.mulf %sum_in, %decay : f64
// CHECK-NEXT:        %sum = arith.addf %kept, %exp_sum : f64
// CHECK-NEXT:        memref.store %decay, %s[%i, %i_1] : memref<4x3xf64>
// CHECK-NEXT:        memref.store %max, %m[%i, %i_1] : memref<?x3xf64>
// CHECK-NEXT:        memref.store %sum, %a[%i, %i_1] : memref<4x3xf64>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
