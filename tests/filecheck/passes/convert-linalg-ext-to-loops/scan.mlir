// scan: per row, the carry starts from the accumulator and runs through the
// inlined combiner in scf.for iter_args; the output gets the carry after
// (inclusive) or before (exclusive) each element; the last carry is stored
// back into the accumulator.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

func.func @cumsum_inclusive(%x: memref<3x4xi64>, %o: memref<3x4xi64>, %c: memref<3xi64>) {
  linalg_ext.scan dimension(1) inclusive(true) ins(%x : memref<3x4xi64>) outs(%o, %c : memref<3x4xi64>, memref<3xi64>) {
  ^bb0(%running: i64, %elem: i64):
    %next = arith.addi %running, %elem : i64
    linalg_ext.yield %next : i64
  }
  func.return
}
// CHECK-LABEL: func.func @cumsum_inclusive(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %carry_in = memref.load %c[%i] : memref<3xi64>
// CHECK-NEXT:      %carry = scf.for %k = %c0 to %c4 step %c1 iter_args(%[[V0:[0-9]+]] = %carry_in) -> (i64) {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %x[%i, %k] : memref<3x4xi64>
// CHECK-NEXT:        %next = arith.addi %[[V0]], %[[V1]] : i64
// CHECK-NEXT:        memref.store %next, %o[%i, %k] : memref<3x4xi64>
// CHECK-NEXT:        scf.yield %next : i64
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %carry, %c[%i] : memref<3xi64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Exclusive, along the outer dimension of a dynamic shape.
func.func @cumsum_exclusive_columns(%x: memref<?x3xf32>, %o: memref<?x3xf32>, %c: memref<3xf32>) {
  linalg_ext.scan dimension(0) inclusive(false) ins(%x : memref<?x3xf32>) outs(%o, %c : memref<?x3xf32>, memref<3xf32>) {
  ^bb0(%running: f32, %elem: f32):
    %next = arith.addf %running, %elem : f32
    linalg_ext.yield %next : f32
  }
  func.return
}
// CHECK-LABEL: func.func @cumsum_exclusive_columns(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c0 : memref<?x3xf32>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %carry_in = memref.load %c[%i] : memref<3xf32>
// CHECK-NEXT:      %carry = scf.for %k = %c0 to %[[V0]] step %c1 iter_args(%[[V1:[0-9]+]] = %carry_in) -> (f32) {
// CHECK-NEXT:        %[[V2:[0-9]+]] = memref.load %x[%k, %i] : memref<?x3xf32>
// CHECK-NEXT:        %next = arith.addf %[[V1]], %[[V2]] : f32
// CHECK-NEXT:        memref.store %[[V1]], %o[%k, %i] : memref<?x3xf32>
// CHECK-NEXT:        scf.yield %next : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %carry, %c[%i] : memref<3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// A running max of rank 1 with a rank-0 accumulator; the combiner's body
// has more than one op.
func.func @running_max(%x: memref<?xf32>, %o: memref<?xf32>, %c: memref<f32>) {
  linalg_ext.scan dimension(0) inclusive(true) ins(%x : memref<?xf32>) outs(%o, %c : memref<?xf32>, memref<f32>) {
  ^bb0(%running: f32, %elem: f32):
    %greater = arith.cmpf ogt, %elem, %running : f32
    %next = arith.select %greater, %elem, %running : f32
    linalg_ext.yield %next : f32
  }
  func.return
}
// CHECK-LABEL: func.func @running_max(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[V0:[0-9]+]] = memref.dim %x, %c0 : memref<?xf32>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %carry_in = memref.load %c[] : memref<f32>
// CHECK-NEXT:    %carry = scf.for %k = %c0 to %[[V0]] step %c1 iter_args(%[[V1:[0-9]+]] = %carry_in) -> (f32) {
// CHECK-NEXT:      %[[V2:[0-9]+]] = memref.load %x[%k] : memref<?xf32>
// CHECK-NEXT:      %greater = arith.cmpf ogt, %[[V2]], %[[V1]] : f32
// CHECK-NEXT:      %next = arith.select %greater, %[[V2]], %[[V1]] : f32
// CHECK-NEXT:      memref.store %next, %o[%k] : memref<?xf32>
// CHECK-NEXT:      scf.yield %next : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %carry, %c[] : memref<f32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// The scan writes its output into its input's buffer: each element is read
// before its position is written.
func.func @cumprod_in_place(%x: memref<2x5xi32>, %c: memref<2xi32>) {
  linalg_ext.scan dimension(1) inclusive(false) ins(%x : memref<2x5xi32>) outs(%x, %c : memref<2x5xi32>, memref<2xi32>) {
  ^bb0(%running: i32, %elem: i32):
    %next = arith.muli %running, %elem : i32
    linalg_ext.yield %next : i32
  }
  func.return
}
// CHECK-LABEL: func.func @cumprod_in_place(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c5 = arith.constant 5 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %carry_in = memref.load %c[%i] : memref<2xi32>
// CHECK-NEXT:      %carry = scf.for %k = %c0 to %c5 step %c1 iter_args(%[[V0:[0-9]+]] = %carry_in) -> (i32) {
// CHECK-NEXT:        %[[V1:[0-9]+]] = memref.load %x[%i, %k] : memref<2x5xi32>
// CHECK-NEXT:        %next = arith.muli %[[V0]], %[[V1]] : i32
// CHECK-NEXT:        memref.store %[[V0]], %x[%i, %k] : memref<2x5xi32>
// CHECK-NEXT:        scf.yield %next : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %carry, %c[%i] : memref<2xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
