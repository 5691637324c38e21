// batch_matmul: loops over the init's elements (batch, M, N), the reduction
// over K carried in scf.for iter_args from the init element through the
// op's inlined multiply-accumulate body; the layout says which indices load
// lhs and rhs.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @bmm_nn(%a: memref<2x3x4xf32>, %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>) layout = "nn"
  func.return
}
// CHECK-LABEL: func.func @bmm_nn(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %batch = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %m = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %n = %c0 to %c5 step %c1 {
// CHECK-NEXT:          %init = memref.load %c[%batch, %m, %n] : memref<2x3x5xf32>
// CHECK-NEXT:          %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%[[V0:[0-9]+]] = %init) -> (f32) {
// CHECK-NEXT:            %[[V1:[0-9]+]] = memref.load %a[%batch, %m, %k] : memref<2x3x4xf32>
// CHECK-NEXT:            %[[V2:[0-9]+]] = memref.load %b[%batch, %k, %n] : memref<2x4x5xf32>
// CHECK-NEXT:            %[[V3:[0-9]+]] = arith.mulf %[[V1]], %[[V2]] : f32
// CHECK-NEXT:            %[[V4:[0-9]+]] = arith.addf %[[V0]], %[[V3]] : f32
// CHECK-NEXT:            scf.yield %[[V4]] : f32
// CHECK-NEXT:          }
// CHECK-NEXT:          memref.store %acc, %c[%batch, %m, %n] : memref<2x3x5xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

func.func @bmm_nt(%a: memref<2x3x4xf32>, %b: memref<2x5x4xf32>, %c: memref<2x3x5xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x3x4xf32>, memref<2x5x4xf32>) outs(%c : memref<2x3x5xf32>) layout = "nt"
  func.return
}
// CHECK-LABEL: func.func @bmm_nt(
// CHECK:             %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%{{[0-9]+}} = %init) -> (f32) {
// CHECK-NEXT:            %{{[0-9]+}} = memref.load %a[%batch, %m, %k] : memref<2x3x4xf32>
// CHECK-NEXT:            %{{[0-9]+}} = memref.load %b[%batch, %n, %k] : memref<2x5x4xf32>

func.func @bmm_tn(%a: memref<2x4x3xf32>, %b: memref<2x4x5xf32>, %c: memref<2x3x5xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x4x3xf32>, memref<2x4x5xf32>) outs(%c : memref<2x3x5xf32>) layout = "tn"
  func.return
}
// CHECK-LABEL: func.func @bmm_tn(
// CHECK:             %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%{{[0-9]+}} = %init) -> (f32) {
// CHECK-NEXT:            %{{[0-9]+}} = memref.load %a[%batch, %k, %m] : memref<2x4x3xf32>
// CHECK-NEXT:            %{{[0-9]+}} = memref.load %b[%batch, %k, %n] : memref<2x4x5xf32>

// Transposed both ways, two batch dimensions, dynamic extents.
func.func @bmm_tt_dynamic(%a: memref<?x2x?x3xf64>, %b: memref<?x2x5x?xf64>, %c: memref<?x2x3x5xf64>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<?x2x?x3xf64>, memref<?x2x5x?xf64>) outs(%c : memref<?x2x3x5xf64>) layout = "tt"
  func.return
}
// CHECK-LABEL: func.func @bmm_tt_dynamic(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %c, %c0 : memref<?x2x3x5xf64>
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %[[V1:[0-9]+]] = memref.dim %a, %c2 : memref<?x2x?x3xf64>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %batch = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:      scf.for %batch_1 = %c0 to %c2 step %c1 {
// CHECK-NEXT:        scf.for %m = %c0 to %c3 step %c1 {
// CHECK-NEXT:          scf.for %n = %c0 to %c5 step %c1 {
// CHECK-NEXT:            %init = memref.load %c[%batch, %batch_1, %m, %n] : memref<?x2x3x5xf64>
// CHECK-NEXT:            %acc = scf.for %k = %c0 to %[[V1]] step %c1 iter_args(%[[V2:[0-9]+]] = %init) -> (f64) {
// CHECK-NEXT:              %[[V3:[0-9]+]] = memref.load %a[%batch, %batch_1, %k, %m] : memref<?x2x?x3xf64>
// CHECK-NEXT:              %[[V4:[0-9]+]] = memref.load %b[%batch, %batch_1, %n, %k] : memref<?x2x5x?xf64>
// CHECK-NEXT:              %[[V5:[0-9]+]] = arith.mulf %[[V3]], %[[V4]] : f64
// CHECK-NEXT:              %[[V6:[0-9]+]] = arith.addf %[[V2]], %[[V5]] : f64
// CHECK-NEXT:              scf.yield %[[V6]] : f64
// CHECK-NEXT:            }
// CHECK-NEXT:            memref.store %acc, %c[%batch, %batch_1, %m, %n] : memref<?x2x3x5xf64>
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// i8 inputs accumulated in i32 (sign-extended, wrapping).
func.func @bmm_mixed_integers(%a: memref<1x3x4xi8>, %b: memref<1x4x2xi8>, %c: memref<1x3x2xi32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<1x3x4xi8>, memref<1x4x2xi8>) outs(%c : memref<1x3x2xi32>) layout = "nn"
  func.return
}
// CHECK-LABEL: func.func @bmm_mixed_integers(
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    scf.for %batch = %c0 to %c1 step %c1 {
// CHECK-NEXT:      scf.for %m = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %n = %c0 to %c2 step %c1 {
// CHECK-NEXT:          %init = memref.load %c[%batch, %m, %n] : memref<1x3x2xi32>
// CHECK-NEXT:          %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%[[V0:[0-9]+]] = %init) -> (i32) {
// CHECK-NEXT:            %[[V1:[0-9]+]] = memref.load %a[%batch, %m, %k] : memref<1x3x4xi8>
// CHECK-NEXT:            %[[V2:[0-9]+]] = memref.load %b[%batch, %k, %n] : memref<1x4x2xi8>
// CHECK-NEXT:            %[[V3:[0-9]+]] = arith.extsi %[[V1]] : i8 to i32
// CHECK-NEXT:            %[[V4:[0-9]+]] = arith.extsi %[[V2]] : i8 to i32
// CHECK-NEXT:            %[[V5:[0-9]+]] = arith.muli %[[V3]], %[[V4]] : i32
// CHECK-NEXT:            %[[V6:[0-9]+]] = arith.addi %[[V0]], %[[V5]] : i32
// CHECK-NEXT:            scf.yield %[[V6]] : i32
// CHECK-NEXT:          }
// CHECK-NEXT:          memref.store %acc, %c[%batch, %m, %n] : memref<1x3x2xi32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
