// diag: per row of every matrix, the row zeroed, then the diagonal element
// stored; the output's initial contents are never read.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @diag_vector(%v: memref<4xf32>, %d: memref<4x4xf32>) {
  linalg_ext.diag ins(%v : memref<4xf32>) outs(%d : memref<4x4xf32>)
  func.return
}
// CHECK-LABEL: func.func @diag_vector(
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %j = %c0 to %c4 step %c1 {
// CHECK-NEXT:        memref.store %cst, %d[%i, %j] : memref<4x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[V0:[0-9]+]] = memref.load %v[%i] : memref<4xf32>
// CHECK-NEXT:      memref.store %[[V0]], %d[%i, %i] : memref<4x4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Batched, dynamic, integer elements.
func.func @diag_batched(%v: memref<2x?xi32>, %d: memref<2x?x?xi32>) {
  linalg_ext.diag ins(%v : memref<2x?xi32>) outs(%d : memref<2x?x?xi32>)
  func.return
}
// CHECK-LABEL: func.func @diag_batched(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %v, %c1 : memref<2x?xi32>
// CHECK-NEXT:    %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %i_1 = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:        scf.for %j = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:          memref.store %c0_i32, %d[%i, %i_1, %j] : memref<2x?x?xi32>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %v[%i, %i_1] : memref<2x?xi32>
// CHECK-NEXT:        memref.store %[[V1]], %d[%i, %i_1, %i_1] : memref<2x?x?xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
