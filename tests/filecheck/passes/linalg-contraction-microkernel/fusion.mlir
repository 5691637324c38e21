// A fill of C right before the contraction, and an elementwise generic right
// after it that is C's last reader, are computed by the micro-kernel: the
// first block of k starts its stage from the fill value, the last block
// applies the generic's body to the finished tile and stores into the
// generic's output. Both ops go. With fuse=false they stay.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 cache-tile=12,16,4}' | filecheck %s --check-prefix=BLOCKS
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 fuse=false}' | filecheck %s --check-prefix=NOFUSE

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @bias_relu(%a: memref<10x9xf32>, %b: memref<9x20xf32>, %bias: memref<20xf32>) -> memref<10x20xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<10x20xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<10x20xf32>)
  linalg.matmul ins(%a, %b : memref<10x9xf32>, memref<9x20xf32>) outs(%c : memref<10x20xf32>)
  %out = memref.alloc() : memref<10x20xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<10x20xf32>, memref<20xf32>) outs(%out : memref<10x20xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<10x20xf32>
  return %out : memref<10x20xf32>
}
// CHECK-LABEL: func.func @bias_relu
// CHECK:         %c = memref.alloc() : memref<10x20xf32>
// CHECK-NEXT:    %out = memref.alloc() : memref<10x20xf32>
// CHECK-NOT:     linalg.fill
// CHECK:         %[[F:.*]] = vector.broadcast %zero : f32 to vector<8xf32>
// CHECK-NEXT:    scf.yield %[[F]], %[[F]],
// CHECK:         scf.for %k =
// CHECK:         memref.load %stage[
// CHECK:         memref.load %bias[
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    arith.maximumf
// CHECK-NEXT:    memref.store {{.*}}, %out[
// CHECK-NOT:     linalg.generic
// CHECK:         memref.dealloc %c : memref<10x20xf32>
// CHECK-NEXT:    return %out : memref<10x20xf32>

// Three blocks of k. A whole tile starts from the fill value in the first
// block and from C after it; it goes back to C, except in the last block,
// where the stage takes it through the epilogue into %out.
// BLOCKS-LABEL: func.func @bias_relu
// BLOCKS:         scf.for %pc = %c0 to %c9 step %c4 {
// BLOCKS:           %[[WHOLE:.*]] = arith.andi
// BLOCKS-NEXT:      %{{.*}} = scf.if %[[WHOLE]] -> ({{.*}}) {
// BLOCKS-NEXT:        %[[FIRST:.*]] = arith.cmpi eq, %pc, %c0 : index
// BLOCKS-NEXT:        %{{.*}} = scf.if %[[FIRST]] -> ({{.*}}) {
// BLOCKS-NEXT:          vector.broadcast %zero
// BLOCKS:             } else {
// BLOCKS:               vector.load %c[
// BLOCKS:           %acc, {{.*}} = scf.for %k
// BLOCKS:           %[[NOT_LAST:.*]] = arith.cmpi slt, %{{.*}}, %c9 : index
// BLOCKS-NEXT:      %[[DIRECT:.*]] = arith.andi %[[WHOLE]], %[[NOT_LAST]] : i1
// BLOCKS-NEXT:      scf.if %[[DIRECT]] {
// BLOCKS:             vector.store %acc, %c[
// BLOCKS:           } else {
// BLOCKS:             %[[LAST:.*]] = arith.cmpi sge, %{{.*}}, %c9 : index
// BLOCKS-NEXT:        scf.if %[[LAST]] {
// BLOCKS:               arith.maximumf
// BLOCKS:               memref.store {{.*}}, %out[
// BLOCKS:             } else {
// BLOCKS:               memref.store {{.*}}, %c[
// BLOCKS-NOT:     linalg.generic

// NOFUSE-LABEL: func.func @bias_relu
// NOFUSE:         linalg.fill
// NOFUSE:         scf.for %jc
// NOFUSE:         linalg.generic

// The epilogue writes C itself (in place): C is stored once, by it.
func.func @in_place(%a: memref<10x9xf32>, %b: memref<9x20xf32>, %c: memref<10x20xf32>) {
  linalg.matmul ins(%a, %b : memref<10x9xf32>, memref<9x20xf32>) outs(%c : memref<10x20xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<10x20xf32>) outs(%c : memref<10x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.tanh %x : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @in_place
// BLOCKS-LABEL: func.func @in_place
// CHECK:         memref.load %c[
// CHECK:         math.tanh
// CHECK-NEXT:    memref.store {{.*}}, %c[
// CHECK-NOT:     linalg.generic

// C is read after the generic: it must be stored, so the generic stays.
func.func @c_read_later(%a: memref<10x9xf32>, %b: memref<9x20xf32>, %c: memref<10x20xf32>, %out: memref<10x20xf32>) {
  linalg.matmul ins(%a, %b : memref<10x9xf32>, memref<9x20xf32>) outs(%c : memref<10x20xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<10x20xf32>) outs(%out : memref<10x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  }
  return
}
// CHECK-LABEL: func.func @c_read_later
// CHECK:         scf.for %jc
// CHECK:         linalg.generic

// The fill's value is not the accumulator's zero: it is where the sums start.
func.func @fill_seven(%a: memref<10x9xf32>, %b: memref<9x20xf32>, %c: memref<10x20xf32>) {
  %seven = arith.constant 7.0 : f32
  linalg.fill ins(%seven : f32) outs(%c : memref<10x20xf32>)
  linalg.matmul ins(%a, %b : memref<10x9xf32>, memref<9x20xf32>) outs(%c : memref<10x20xf32>)
  return
}
// CHECK-LABEL: func.func @fill_seven
// CHECK-NOT:     linalg.fill
// CHECK:         vector.broadcast %seven : f32 to vector<8xf32>
