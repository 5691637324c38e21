// linalg.generic on memrefs: one scf.for per loop of the iteration domain,
// in its order, bounded by the first operand dimension each loop indexes
// alone (a constant, or memref.dim when dynamic); the body inlined in the
// innermost loop with a memref.load per input it reads, linalg.index as the
// induction variable, and a memref.store per output.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#scalar = affine_map<(d0, d1) -> ()>

// Static shapes, a transposed input, a scalar input, linalg.index.
func.func @static_index_scalar(%a: memref<3x4xf32>, %b: memref<4x3xf32>, %s: f32, %out: memref<3x4xf32>) {
  linalg.generic {indexing_maps = [#id, #t, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %s : memref<3x4xf32>, memref<4x3xf32>, f32) outs(%out : memref<3x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %p = arith.mulf %x, %y : f32
    %q = arith.addf %p, %z : f32
    %r = arith.addf %q, %jf : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @static_index_scalar(%a: memref<3x4xf32>, %b: memref<4x3xf32>, %s: f32, %out: memref<3x4xf32>)
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[J]], %[[I]]] : memref<4x3xf32>
// CHECK-NEXT:        %ji = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:        %jf = arith.sitofp %ji : i32 to f32
// CHECK-NEXT:        %p = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        %q = arith.addf %p, %s : f32
// CHECK-NEXT:        %r = arith.addf %q, %jf : f32
// CHECK-NEXT:        memref.store %r, %out[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// Dynamic shapes: the bounds are memref.dim of the first operand indexing
// each loop alone. The output is read (accumulated into) and loaded.
func.func @dynamic(%a: memref<?x?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @dynamic(%a: memref<?x?xf32>, %out: memref<?x?xf32>)
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c1 : memref<?x?xf32>
// CHECK-NEXT:    %dim_1 = memref.dim %a, %c0 : memref<?x?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %dim_1 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[J]], %[[I]]] : memref<?x?xf32>
// CHECK-NEXT:        %[[O:.*]] = memref.load %out[%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:        %r = arith.addf %[[X]], %[[O]] : f32
// CHECK-NEXT:        memref.store %r, %out[%[[I]], %[[J]]] : memref<?x?xf32>

// Two outputs, one reduced along d1 and one indexed by it: the reduced one
// is carried through the reduction loop, the other stored in it.
func.func @multi_output(%a: memref<3x5xi32>, %sum: memref<3xi32>, %idx: memref<3x5xindex>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<3x5xi32>) outs(%sum, %idx : memref<3xi32>, memref<3x5xindex>) {
  ^bb0(%x: i32, %acc: i32, %unused: index):
    %s = arith.addi %x, %acc : i32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    linalg.yield %s, %k : i32, index
  }
  return
}
// CHECK-LABEL: func.func @multi_output
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      %[[INIT:.*]] = memref.load %sum[%[[I]]] : memref<3xi32>
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %[[J:.*]] = %c0 to %c5 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]]) -> (i32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x5xi32>
// CHECK-NEXT:        %s = arith.addi %[[X]], %[[ACC]] : i32
// CHECK-NEXT:        %k = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:        memref.store %k, %idx[%[[I]], %[[J]]] : memref<3x5xindex>
// CHECK-NEXT:        scf.yield %s : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[SUM]], %sum[%[[I]]] : memref<3xi32>

// Innermost reductions no output map uses: the output element is loaded
// once, carried in iter_args through the reduction loops, stored once.
#r3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o3 = affine_map<(d0, d1, d2) -> (d0)>
func.func @carried(%a: memref<2x?x3xf32>, %out: memref<2xf32>) {
  linalg.generic {indexing_maps = [#r3, #o3], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%a : memref<2x?x3xf32>) outs(%out : memref<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  }
  return
}
// CHECK-LABEL: func.func @carried
// CHECK:         %dim = memref.dim %a, %c1 : memref<2x?x3xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %[[INIT:.*]] = memref.load %out[%[[I]]] : memref<2xf32>
// CHECK-NEXT:      %[[R:.*]] = scf.for %[[J:.*]] = %c0 to %dim step %c1 iter_args(%[[A:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:        %[[R2:.*]] = scf.for %[[K:.*]] = %c0 to %c3 step %c1 iter_args(%[[B:.*]] = %[[A]]) -> (f32) {
// CHECK-NEXT:          %[[X:.*]] = memref.load %a[%[[I]], %[[J]], %[[K]]] : memref<2x?x3xf32>
// CHECK-NEXT:          %m = arith.maximumf %[[X]], %[[B]] : f32
// CHECK-NEXT:          scf.yield %m : f32
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.yield %[[R2]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[R]], %out[%[[I]]] : memref<2xf32>

// A reduction that is not innermost is not carried: loop order is the
// domain's, as upstream.
#c2 = affine_map<(d0, d1) -> (d1)>
func.func @outer_reduction(%a: memref<4x3xf32>, %out: memref<3xf32>) {
  linalg.generic {indexing_maps = [#id, #c2], iterator_types = ["reduction", "parallel"]}
      ins(%a : memref<4x3xf32>) outs(%out : memref<3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @outer_reduction
// CHECK:         scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        memref.load %a[%[[I]], %[[J]]]
// CHECK-NEXT:        memref.load %out[%[[J]]]
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        memref.store %{{.*}}, %out[%[[J]]]

// Index expressions other than a loop or a constant are affine.apply of
// the loops they use; a constant index is a constant.
#shift = affine_map<(d0, d1) -> (d0 + d1 * 2, 1)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @apply_indices(%a: memref<9x2xf32>, %out: memref<3x3xf32>) {
  linalg.generic {indexing_maps = [#shift, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<9x2xf32>) outs(%out : memref<3x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}
// CHECK-LABEL: func.func @apply_indices
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        %[[K:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + (d1 * 2)))> (%[[I]], %[[J]])
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[K]], %c1] : memref<9x2xf32>
// CHECK-NEXT:        memref.store %[[X]], %out[%[[I]], %[[J]]] : memref<3x3xf32>

// Rank 0: no loops at all.
func.func @rank0(%a: memref<f32>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%a : memref<f32>) outs(%out : memref<f32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.subf %o, %x : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @rank0
// CHECK-NEXT:    %[[X:.*]] = memref.load %a[] : memref<f32>
// CHECK-NEXT:    %[[O:.*]] = memref.load %out[] : memref<f32>
// CHECK-NEXT:    %s = arith.subf %[[O]], %[[X]] : f32
// CHECK-NEXT:    memref.store %s, %out[] : memref<f32>
// CHECK-NEXT:    func.return

// Inside other loops, and with a body holding a region.
func.func @nested_in_loop(%a: memref<4xi32>, %out: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%a : memref<4xi32>) outs(%out : memref<4xi32>) {
    ^bb0(%x: i32, %o: i32):
      %z = arith.constant 0 : i32
      %neg = arith.cmpi slt, %x, %z : i32
      %r = scf.if %neg -> (i32) {
        scf.yield %o : i32
      } else {
        %s = arith.addi %x, %o : i32
        scf.yield %s : i32
      }
      linalg.yield %r : i32
    }
  }
  return
}
// CHECK-LABEL: func.func @nested_in_loop
// CHECK:         scf.for %[[T:.*]] = %c0 to %n step %c1 {
// CHECK-NEXT:      %c4 = arith.constant 4 : index
// CHECK-NEXT:      %c0_1 = arith.constant 0 : index
// CHECK-NEXT:      %c1_1 = arith.constant 1 : index
// CHECK-NEXT:      scf.for %[[I:.*]] = %c0_1 to %c4 step %c1_1 {
// CHECK:             %r = scf.if %neg -> (i32) {
// CHECK:             memref.store %r, %out[%[[I]]] : memref<4xi32>
