// scatter: batch positions in row-major order, each reading its coordinates
// once (integers through arith.index_cast), then its window element by
// element: load the src element and the update, combine them with the
// inlined region, store. Repeated coordinates are applied in order, each
// seeing the previous ones. An out-of-bounds coordinate fails the load.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

// Rows of src added to; random `index` coordinates lie in [0, 4), and
// repeat.
func.func @scatter_add_rows(%idx: memref<3x1xindex>, %upd: memref<3x2xf32>, %src: memref<4x2xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<3x1xindex>, memref<3x2xf32>) outs(%src : memref<4x2xf32>) {
  ^bb0(%old: f32, %new: f32):
    %sum = arith.addf %old, %new : f32
    linalg_ext.yield %sum : f32
  }
  func.return
}
// CHECK-LABEL: func.func @scatter_add_rows(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %p = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %[[V0:[0-9]+]] = memref.load %idx[%p, %c0] : memref<3x1xindex>
// CHECK-NEXT:      scf.for %w = %c0 to %c2 step %c1 {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %src[%[[V0]], %w] : memref<4x2xf32>
// CHECK-NEXT:        %[[V2:[0-9]+]] = memref.load %upd[%p, %w] : memref<3x2xf32>
// CHECK-NEXT:        %sum = arith.addf %[[V1]], %[[V2]] : f32
// CHECK-NEXT:        memref.store %sum, %src[%[[V0]], %w] : memref<4x2xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Two coordinates of i32 (made non-negative first, in place: random i32
// elements lie in [-4, 4]), an overwriting region (the last update of a
// position wins), a dynamic window.
func.func @scatter_overwrite_points(%idx: memref<5x2xi32>, %upd: memref<5x?xf32>, %src: memref<4x4x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %eight = arith.constant 8 : i32
  %four = arith.constant 4 : i32
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %idx[%i, %j] : memref<5x2xi32>
      %shifted = arith.addi %v, %eight : i32
      %wrapped = arith.remsi %shifted, %four : i32
      memref.store %wrapped, %idx[%i, %j] : memref<5x2xi32>
    }
  }
  linalg_ext.scatter ins(%idx, %upd : memref<5x2xi32>, memref<5x?xf32>) outs(%src : memref<4x4x?xf32>) {
  ^bb0(%old: f32, %new: f32):
    linalg_ext.yield %new : f32
  }
  func.return
}
// CHECK-LABEL: func.func @scatter_overwrite_points(
// CHECK:             memref.store %wrapped, %idx[%i, %j] : memref<5x2xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %c5_1 = arith.constant 5 : index
// CHECK-NEXT:    %c1_1 = arith.constant 1 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %upd, %c1_1 : memref<5x?xf32>
// CHECK-NEXT:    %c0_1 = arith.constant 0 : index
// CHECK-NEXT:    scf.for %p = %c0_1 to %c5_1 step %c1_1 {
// CHECK-NEXT:      %[[V1:[0-9]+]] = memref.load %idx[%p, %c0_1] : memref<5x2xi32>
// CHECK-NEXT:      %[[V2:[0-9]+]] = arith.index_cast %[[V1]] : i32 to index
// CHECK-NEXT:      %[[V3:[0-9]+]] = memref.load %idx[%p, %c1_1] : memref<5x2xi32>
// CHECK-NEXT:      %[[V4:[0-9]+]] = arith.index_cast %[[V3]] : i32 to index
// CHECK-NEXT:      scf.for %w = %c0_1 to %[[V0]] step %c1_1 {
// CHECK-NEXT:        %[[V5:[0-9]+]] = memref.load %src[%[[V2]], %[[V4]], %w] : memref<4x4x?xf32>
// CHECK-NEXT:        %[[V6:[0-9]+]] = memref.load %upd[%p, %w] : memref<5x?xf32>
// CHECK-NEXT:        memref.store %[[V6]], %src[%[[V2]], %[[V4]], %w] : memref<4x4x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Index depth 0: every batch position updates the whole of src.
func.func @scatter_depth_zero(%idx: memref<2x0xindex>, %upd: memref<2x3xf32>, %src: memref<3xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<2x0xindex>, memref<2x3xf32>) outs(%src : memref<3xf32>) {
  ^bb0(%old: f32, %new: f32):
    %m = arith.maximumf %old, %new : f32
    linalg_ext.yield %m : f32
  }
  func.return
}
// CHECK-LABEL: func.func @scatter_depth_zero(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %p = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %w = %c0 to %c3 step %c1 {
// CHECK-NEXT:        %[[V0:[0-9]+]] = memref.load %src[%w] : memref<3xf32>
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %upd[%p, %w] : memref<2x3xf32>
// CHECK-NEXT:        %m = arith.maximumf %[[V0]], %[[V1]] : f32
// CHECK-NEXT:        memref.store %m, %src[%w] : memref<3xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Two batch dimensions, a dynamic one among them, and scalar windows.
func.func @scatter_batches(%idx: memref<?x2x1xindex>, %upd: memref<?x2xi64>, %src: memref<5xi64>) {
  linalg_ext.scatter ins(%idx, %upd : memref<?x2x1xindex>, memref<?x2xi64>) outs(%src : memref<5xi64>) {
  ^bb0(%old: i64, %new: i64):
    %p = arith.muli %old, %new : i64
    %s = arith.addi %p, %new : i64
    linalg_ext.yield %s : i64
  }
  func.return
}
// CHECK-LABEL: func.func @scatter_batches(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %idx, %c0 : memref<?x2x1xindex>
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %p = %c0 to %[[V0]] step %c1 {
// CHECK-NEXT:      scf.for %p_1 = %c0 to %c2 step %c1 {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %idx[%p, %p_1, %c0] : memref<?x2x1xindex>
// CHECK-NEXT:        %[[V2:[0-9]+]] = memref.load %src[%[[V1]]] : memref<5xi64>
// CHECK-NEXT:        %[[V3:[0-9]+]] = memref.load %upd[%p, %p_1] : memref<?x2xi64>
// CHECK-NEXT:        %p_2 = arith.muli %[[V2]], %[[V3]] : i64
// CHECK-NEXT:        %s = arith.addi %p_2, %[[V3]] : i64
// CHECK-NEXT:        memref.store %s, %src[%[[V1]]] : memref<5xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
