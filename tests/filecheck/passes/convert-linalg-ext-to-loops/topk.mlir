// topk: per row, an insertion sort into the outputs. Element l is compared
// with the K-th kept element only once K are kept (scf.if); if it comes
// first, an scf.while shifts the kept elements it comes before one place
// down (comparing with the comparator, inlined) and it takes the hole.
// Elements that tie stay in the order of their original positions.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

// The largest 3 of each row of f32, their positions as i32.
func.func @top3(%v: memref<2x6xf32>, %ov: memref<2x3xf32>, %oi: memref<2x3xi32>) {
  linalg_ext.topk dimension(1) ins(%v : memref<2x6xf32>) outs(%ov, %oi : memref<2x3xf32>, memref<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @top3(
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c6 = arith.constant 6 : index
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %true = arith.constant true
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %false = arith.constant false
// CHECK-NEXT:    scf.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %l = %c0 to %c6 step %c1 {
// CHECK-NEXT:        %value = memref.load %v[%i, %l] : memref<2x6xf32>
// CHECK-NEXT:        %full = arith.cmpi sge, %l, %c3 : index
// CHECK-NEXT:        %kept = scf.if %full -> (i1) {
// CHECK-NEXT:          %[[V0:[0-9]+]] = memref.load %ov[%i, %c2] : memref<2x3xf32>
// CHECK-NEXT:          %first = arith.cmpf ogt, %value, %[[V0]] : f32
// CHECK-NEXT:          scf.yield %first : i1
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %true : i1
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.if %kept {
// CHECK-NEXT:          %hole = arith.select %full, %c2, %l : index
// CHECK-NEXT:          %slot = scf.while (%t = %hole) : (index) -> index {
// CHECK-NEXT:            %[[V1:[0-9]+]] = arith.cmpi sgt, %t, %c0 : index
// CHECK-NEXT:            %[[V2:[0-9]+]] = scf.if %[[V1]] -> (i1) {
// CHECK-NEXT:              %[[V3:[0-9]+]] = arith.subi %t, %c1 : index
// CHECK-NEXT:              %[[V4:[0-9]+]] = memref.load %ov[%i, %[[V3]]] : memref<2x3xf32>
// CHECK-NEXT:              %first_1 = arith.cmpf ogt, %value, %[[V4]] : f32
// CHECK-NEXT:              scf.yield %first_1 : i1
// CHECK-NEXT:            } else {
// CHECK-NEXT:              scf.yield %false : i1
// CHECK-NEXT:            }
// CHECK-NEXT:            scf.condition(%[[V2]]) %t : index
// CHECK-NEXT:          } do {
// CHECK-NEXT:          ^bb0(%t_1: index):
// CHECK-NEXT:            %[[V5:[0-9]+]] = arith.subi %t_1, %c1 : index
// CHECK-NEXT:            %[[V6:[0-9]+]] = memref.load %ov[%i, %[[V5]]] : memref<2x3xf32>
// CHECK-NEXT:            memref.store %[[V6]], %ov[%i, %t_1] : memref<2x3xf32>
// CHECK-NEXT:            %[[V7:[0-9]+]] = memref.load %oi[%i, %[[V5]]] : memref<2x3xi32>
// CHECK-NEXT:            memref.store %[[V7]], %oi[%i, %t_1] : memref<2x3xi32>
// CHECK-NEXT:            scf.yield %[[V5]] : index
// CHECK-NEXT:          }
// CHECK-NEXT:          %[[V8:[0-9]+]] = arith.index_cast %l : index to i32
// CHECK-NEXT:          memref.store %value, %ov[%i, %slot] : memref<2x3xf32>
// CHECK-NEXT:          memref.store %[[V8]], %oi[%i, %slot] : memref<2x3xi32>
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// Integers in [-4, 4]: many ties, which keep the smaller position first.
func.func @top4_ties(%v: memref<3x8xi32>, %ov: memref<3x4xi32>, %oi: memref<3x4xindex>) {
  linalg_ext.topk dimension(1) ins(%v : memref<3x8xi32>) outs(%ov, %oi : memref<3x4xi32>, memref<3x4xindex>) {
  ^bb0(%a: i32, %b: i32):
    %first = arith.cmpi sgt, %a, %b : i32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @top4_ties(
// CHECK:             %first = arith.cmpi sgt, %value, %{{[0-9]+}} : i32
// CHECK:             %first_1 = arith.cmpi sgt, %value, %{{[0-9]+}} : i32
// CHECK:           memref.store %value, %ov[%i, %slot] : memref<3x4xi32>
// CHECK-NEXT:      memref.store %l, %oi[%i, %slot] : memref<3x4xindex>

// Ascending order along dimension 0 of a dynamic shape, with given
// indices: the outputs carry those, not positions.
func.func @bottom2_given_indices(%v: memref<?x3xf32>, %i: memref<?x3xi64>, %ov: memref<2x3xf32>, %oi: memref<2x3xi64>) {
  linalg_ext.topk dimension(0) ins(%v, %i : memref<?x3xf32>, memref<?x3xi64>) outs(%ov, %oi : memref<2x3xf32>, memref<2x3xi64>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf olt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @bottom2_given_indices(
// CHECK:         %[[N:[0-9]+]] = memref.dim %v, %c0 : memref<?x3xf32>
// CHECK:         scf.for %i_1 = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %l = %c0 to %[[N]] step %c1 {
// CHECK-NEXT:        %value = memref.load %v[%l, %i_1] : memref<?x3xf32>
// CHECK-NEXT:        %full = arith.cmpi sge, %l, %c2 : index
// CHECK-NEXT:        %kept = scf.if %full -> (i1) {
// CHECK-NEXT:          %[[LAST:[0-9]+]] = memref.load %ov[%c1, %i_1] : memref<2x3xf32>
// CHECK-NEXT:          %first = arith.cmpf olt, %value, %[[LAST]] : f32
// CHECK:               memref.store %{{[0-9]+}}, %oi[%t_1, %i_1] : memref<2x3xi64>
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[GIVEN:[0-9]+]] = memref.load %i[%l, %i_1] : memref<?x3xi64>
// CHECK-NEXT:        memref.store %value, %ov[%slot, %i_1] : memref<2x3xf32>
// CHECK-NEXT:        memref.store %[[GIVEN]], %oi[%slot, %i_1] : memref<2x3xi64>

// A dynamic K: the loops run only if K > 0.
func.func @topk_dynamic_k(%v: memref<2x6xi32>, %ov: memref<2x?xi32>, %oi: memref<2x?xi64>) {
  linalg_ext.topk dimension(1) ins(%v : memref<2x6xi32>) outs(%ov, %oi : memref<2x?xi32>, memref<2x?xi64>) {
  ^bb0(%a: i32, %b: i32):
    %first = arith.cmpi slt, %a, %b : i32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @topk_dynamic_k(
// CHECK:         %[[K:[0-9]+]] = memref.dim %ov, %c1 : memref<2x?xi32>
// CHECK:         %last = arith.subi %[[K]], %c1 : index
// CHECK-NEXT:    %[[ANY:[0-9]+]] = arith.cmpi sgt, %[[K]], %c0 : index
// CHECK-NEXT:    scf.if %[[ANY]] {
// CHECK-NEXT:      scf.for %i = %c0 to %c2 step %c1 {
// CHECK-NEXT:        scf.for %l = %c0 to %c6 step %c1 {
// CHECK-NEXT:          %value = memref.load %v[%i, %l] : memref<2x6xi32>
// CHECK-NEXT:          %full = arith.cmpi sge, %l, %[[K]] : index
// CHECK-NEXT:          %kept = scf.if %full -> (i1) {
// CHECK-NEXT:            %[[LAST:[0-9]+]] = memref.load %ov[%i, %last] : memref<2x?xi32>
// CHECK-NEXT:            %first = arith.cmpi slt, %value, %[[LAST]] : i32
// CHECK:                 %hole = arith.select %full, %last, %l : index
// CHECK:                 %[[POSITION:[0-9]+]] = arith.index_cast %l : index to i64
// CHECK-NEXT:            memref.store %value, %ov[%i, %slot] : memref<2x?xi32>
// CHECK-NEXT:            memref.store %[[POSITION]], %oi[%i, %slot] : memref<2x?xi64>

// K = N: a full stable sort of a vector; every element is kept, so none is
// compared with the last kept one.
func.func @sort_vector(%v: memref<5xi32>, %ov: memref<5xi32>, %oi: memref<5xi32>) {
  linalg_ext.topk dimension(0) ins(%v : memref<5xi32>) outs(%ov, %oi : memref<5xi32>, memref<5xi32>) {
  ^bb0(%a: i32, %b: i32):
    %first = arith.cmpi sgt, %a, %b : i32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @sort_vector(
// CHECK:         scf.for %l = %c0 to %c5 step %c1 {
// CHECK-NEXT:      %value = memref.load %v[%l] : memref<5xi32>
// CHECK-NEXT:      %slot = scf.while (%t = %l) : (index) -> index {
// CHECK:           %[[POSITION:[0-9]+]] = arith.index_cast %l : index to i32
// CHECK-NEXT:      memref.store %value, %ov[%slot] : memref<5xi32>
// CHECK-NEXT:      memref.store %[[POSITION]], %oi[%slot] : memref<5xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// K = 0: nothing to write, no loops.
func.func @top0(%v: memref<2x4xf32>, %ov: memref<2x0xf32>, %oi: memref<2x0xi32>) {
  linalg_ext.topk dimension(1) ins(%v : memref<2x4xf32>) outs(%ov, %oi : memref<2x0xf32>, memref<2x0xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @top0(
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
