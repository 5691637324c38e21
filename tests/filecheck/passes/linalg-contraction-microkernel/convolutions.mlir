// Convolutions are contractions too: every reduction loop (the input
// channel and the window) is packed as one flattened k, im2col-style, in the
// domain's order, so each output element still adds its terms in the plain
// loops' order; the packing loops split a step of k into the loops' indices
// (remui/divui) and compute the window's offsets (oh * stride + kh). NHWC:
// rows ow, columns f. NCHW: C's contiguous loop (ow) comes from the image,
// so the inputs swap roles (rows f from the filter, columns ow from the
// image) and the vectors run along ow. An input the batch loops do not move
// over (the filter), whose rows and k fit one block, is packed once before
// them.
// With parallel=true a convolution's rows are one block, so its first batch
// loop that runs more than once (the output rows oh) is the scf.parallel, each
// iteration with its own packed buffers and stage; the filter, packed once
// before it, is read by all.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 parallel=true}' | filecheck %s --check-prefix=PAR

func.func @nhwc(%x: memref<1x6x9x5xf32>, %w: memref<3x3x5x10xf32>, %y: memref<1x4x7x10xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x6x9x5xf32>, memref<3x3x5x10xf32>) outs(%y : memref<1x4x7x10xf32>)
  return
}
// CHECK-LABEL: func.func @nhwc
// CHECK:         %packed_rhs = memref.alloc() {alignment = 64 : i64} : memref<1x45x16xf32>
// CHECK:         scf.for %kk = %c0 to %c45 step %c1 {
// CHECK:           arith.remui %{{.*}}, %c5
// CHECK:           arith.divui %{{.*}}, %c5
// CHECK:           arith.remui %{{.*}}, %c3
// CHECK:           arith.divui %{{.*}}, %c3
// CHECK:           vector.load %w[
// CHECK:         scf.for %batch = %c0 to %c1 step %c1 {
// CHECK-NEXT:      scf.for %batch_1 = %c0 to %c4 step %c1 {
// CHECK-NEXT:        scf.for %jc = %c0 to %c10 step
// CHECK:               scf.for %pc = %c0 to %c45 step %c45 {
// CHECK-NOT:             vector.load %w
// CHECK:                 affine.apply
// CHECK:                 memref.load %x[
// CHECK:                 vector.load %y[
// CHECK:                 scf.for %k =
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf

// Strided NCHW: the filter is the lhs, packed once (27 steps of k: c, kh,
// kw); the image's strided rows are copied an element at a time; whole
// tiles of C would read it directly (ow is its last dimension), this one is
// an edge and goes through the stage.
func.func @nchw_strided(%x: memref<2x3x9x9xf32>, %w: memref<4x3x3x3xf32>, %y: memref<2x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x3x9x9xf32>, memref<4x3x3x3xf32>) outs(%y : memref<2x4x4x4xf32>)
  return
}
// CHECK-LABEL: func.func @nchw_strided
// CHECK:         %packed_lhs = memref.alloc() {alignment = 64 : i64} : memref<1x27x6xf32>
// CHECK:         scf.for %kk = %c0 to %c27 step %c1 {
// CHECK:           memref.load %w[
// CHECK:         scf.for %batch = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %batch_1 = %c0 to %c4 step %c1 {
// CHECK:               memref.load %x[%batch,
// CHECK:               vector.load %y[%batch, %{{.*}}, %batch_1, %{{.*}}]
// CHECK:               memref.store {{.*}}, %stage[
// CHECK:               scf.for %k =
// CHECK:               memref.store {{.*}}, %y[
// CHECK-NOT:     linalg.conv_2d_nchw_fchw

// PAR-LABEL: func.func @nhwc
// PAR:         %packed_rhs = memref.alloc()
// PAR:         scf.for %kk =
// PAR:         "scf.parallel"(%c0, %c4, %c1)
// PAR-NEXT:    ^{{.*}}(%batch: index):
// PAR-NEXT:      %packed_lhs = memref.alloc()
// PAR-NEXT:      %stage = memref.alloc()
// PAR:           scf.for %batch_1 = %c0 to %c1 step %c1 {
// PAR-NEXT:        scf.for %jc = %c0 to %c10 step %c16 {
// PAR:           memref.dealloc %packed_lhs
// PAR-NEXT:      scf.reduce
// PAR:         memref.dealloc %packed_rhs
