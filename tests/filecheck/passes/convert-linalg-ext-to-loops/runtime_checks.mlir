// With `runtime-checks`, the loops first check, at run time, the dynamic
// extents that must agree across operands (one check per pair that is not
// static on both sides, with the interpreter's message), topk's K <= N and
// each scatter index where it is read; then every load and store of the
// loops is in bounds, and marked so (`rtcheck.in_bounds`) for
// insert-runtime-checks to skip.
// RUN: xdsl-opt %s -p 'convert-linalg-ext-to-loops{runtime-checks=true}' | filecheck %s

func.func @scan(%x: memref<?xf32>, %o: memref<?xf32>, %c: memref<f32>) {
  linalg_ext.scan dimension(0) inclusive(true) ins(%x : memref<?xf32>) outs(%o, %c : memref<?xf32>, memref<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @scan(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %[[O:.*]] = memref.dim %o, %c0 : memref<?xf32>
// CHECK-NEXT:    %[[X:.*]] = memref.dim %x, %c0 : memref<?xf32>
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[O]], %[[X]] : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "'linalg_ext.scan': output has size {} in dimension 0, but input has size {} in dimension 0" (%[[O]], %[[X]] : index, index)
// CHECK-NEXT:    %carry_in = memref.load %c[] {rtcheck.in_bounds} : memref<f32>
// CHECK-NEXT:    %carry = scf.for %k = %c0 to %[[X]] step %c1
// CHECK-NEXT:      memref.load %x[%k] {rtcheck.in_bounds} : memref<?xf32>
// CHECK-NEXT:      %s = arith.addf
// CHECK-NEXT:      memref.store %s, %o[%k] {rtcheck.in_bounds} : memref<?xf32>

func.func @layer_norm(%x: memref<2x4xf32>, %w: memref<?xf32>, %b: memref<4xf32>, %o: memref<2x4xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<2x4xf32>, memref<?xf32>, memref<4xf32>) outs(%o : memref<2x4xf32>)
  func.return
}
// Only the dynamic weight is compared, with the static extent of the axis.
// CHECK-LABEL: func.func @layer_norm(
// CHECK:         %[[W:.*]] = memref.dim %w, %c0 : memref<?xf32>
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[W]], %c4 : index
// CHECK-NEXT:    rtcheck.assert %[[OK]], "'linalg_ext.layer_norm': weight has size {} in dimension 0, but input has size {} in dimension 1" (%[[W]], %c4 : index, index)
// CHECK-NOT:     rtcheck.assert

func.func @batch_matmul(%a: memref<1x2x?xf32>, %b: memref<1x?x2xf32>, %c: memref<1x2x2xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<1x2x?xf32>, memref<1x?x2xf32>) outs(%c : memref<1x2x2xf32>) layout = "nn"
  func.return
}
// CHECK-LABEL: func.func @batch_matmul(
// CHECK:         rtcheck.assert %{{.*}}, "'linalg_ext.batch_matmul': rhs has size {} in dimension 1, but lhs has size {} in dimension 2"
// CHECK-NOT:     rtcheck.assert

func.func @topk(%v: memref<?xf32>, %ov: memref<?xf32>, %oi: memref<?xi32>) {
  linalg_ext.topk dimension(0) ins(%v : memref<?xf32>) outs(%ov, %oi : memref<?xf32>, memref<?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
// CHECK-LABEL: func.func @topk(
// CHECK:         rtcheck.assert %{{.*}}, "'linalg_ext.topk': output indices has size {} in dimension 0, but output values has size {} in dimension 0"
// CHECK:         %[[K:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    rtcheck.assert %[[K]], "'linalg_ext.topk': K ({}, the outputs' extent along dimension 0) exceeds the input extent along that dimension ({})"

func.func @scatter(%idx: memref<2x1xindex>, %upd: memref<2x3xf32>, %src: memref<?x3xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<2x1xindex>, memref<2x3xf32>) outs(%src : memref<?x3xf32>) {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    linalg_ext.yield %s : f32
  }
  func.return
}
// Each index is checked where it is read, against src's extent. (Indices of
// type index: random inputs of that type are in range, so every run passes.)
// CHECK-LABEL: func.func @scatter(
// CHECK:         %[[N:.*]] = memref.dim %src, %c0 : memref<?x3xf32>
// CHECK:         scf.for %p = %c0 to %c2 step %c1 {
// CHECK-NEXT:      %[[R:.*]] = memref.load %idx[%p, %c0] {rtcheck.in_bounds} : memref<2x1xindex>
// CHECK-NEXT:      %[[OK:.*]] = arith.cmpi ult, %[[R]], %[[N]] : index
// CHECK-NEXT:      rtcheck.assert %[[OK]], "'linalg_ext.scatter' index [{}] at batch position [{}] is out of bounds for src of shape [{}, 3]" (%[[R]], %p, %[[N]] : index, index, index)
// CHECK-NEXT:      scf.for %w = %c0 to %c3 step %c1 {
// CHECK-NEXT:        memref.load %src[%[[R]], %w] {rtcheck.in_bounds} : memref<?x3xf32>
