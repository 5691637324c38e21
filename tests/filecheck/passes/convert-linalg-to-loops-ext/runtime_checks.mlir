// With `runtime-checks`, the loops first check what the interpreter checks
// of the operands' extents, in its order and words: each dimension indexed
// by a loop alone has the extent of that loop (taken from the first such
// dimension), unless both are static; a dimension indexed by a sum (a
// convolution's window) holds the range of the sum. Then the loads and
// stores are in bounds and marked so (`rtcheck.in_bounds`). Static shapes
// need no check.
// RUN: xdsl-opt %s -p 'convert-linalg-to-loops-ext{runtime-checks=true}' | filecheck %s

func.func @add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  linalg.add ins(%a, %b : memref<?xf32>, memref<?xf32>) outs(%c : memref<?xf32>)
  func.return
}
// CHECK-LABEL: func.func @add(
// CHECK:         %[[N:.*]] = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[B:.*]] = memref.dim %b, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[B]], %[[N]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "linalg.add: operand #1 has size {} in dimension 0, but loop d0 runs {} times" (%[[B]], %[[N]] : index, index)
// CHECK-NEXT:    %[[C:.*]] = memref.dim %c, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[OK2:.*]] = arith.cmpi eq, %[[C]], %[[N]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK2]], "linalg.add: operand #2 has size {} in dimension 0, but loop d0 runs {} times" (%[[C]], %[[N]] : index, index)
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %[[N]] step %c1 {
// CHECK-NEXT:      memref.load %a[%[[I]]] {rtcheck.in_bounds} : memref<?xf32>
// CHECK-NEXT:      memref.load %b[%[[I]]] {rtcheck.in_bounds} : memref<?xf32>
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      memref.store %{{.*}}, %c[%[[I]]] {rtcheck.in_bounds} : memref<?xf32>

func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x2xf32>) outs(%c : memref<4x2xf32>)
  func.return
}
// CHECK-LABEL: func.func @matmul(
// CHECK-NOT:     rtcheck.assert
// CHECK:         memref.load %a[%{{.*}}, %{{.*}}] {rtcheck.in_bounds}
// CHECK:         func.return

func.func @conv(%x: memref<7xf32>, %w: memref<?xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<7xf32>, memref<?xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  func.return
}
// The window's indices run from the sum at the first point to the sum at
// the last; an empty iteration space accesses nothing.
// CHECK-LABEL: func.func @conv(
// CHECK:         %[[O:.*]] = memref.dim %o, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[W:.*]] = memref.dim %w, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[O1:.*]] = arith.subi %[[O]], %c1 : index
// CHECK-NEXT:    %[[W1:.*]] = arith.subi %[[W]], %c1 : index
// CHECK-NEXT:    %[[LOW:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%c0, %c0)
// CHECK-NEXT:    %[[HIGH:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[O1]], %[[W1]])
// CHECK-NEXT:    %[[L:.*]] = arith.cmpi sge, %[[LOW]], %c0 : index
// CHECK-NEXT:    %[[H:.*]] = arith.cmpi slt, %[[HIGH]], %c7 : index
// CHECK-NEXT:    %[[LH:.*]] = arith.andi %[[L]], %[[H]] : i1
// CHECK-NEXT:    %[[E0:.*]] = arith.cmpi eq, %[[O]], %c0 : index
// CHECK-NEXT:    %[[E1:.*]] = arith.cmpi eq, %[[W]], %c0 : index
// CHECK-NEXT:    %[[F0:.*]] = arith.ori %[[LH]], %[[E0]] : i1
// CHECK-NEXT:    %[[F1:.*]] = arith.ori %[[F0]], %[[E1]] : i1
// CHECK-NEXT:    rtcheck.assert %[[F1]], "linalg.generic: operand #0 is accessed at indices {}..{} in dimension 0, of size {}" (%[[LOW]], %[[HIGH]], %c7 : index, index, index)
