// Convolutions are contractions too: their row loop is the last output
// position only A uses (ow), their column loop the output channel (f), k the
// last reduction loop (the input channel for NHWC, the window's column for
// NCHW); the other reduction loops (the window) run around the packed
// product, in the domain's order, so each output element still adds its
// terms in the plain loops' order. The window's offsets (oh * stride + kh)
// are computed by the packing loops.
// With parallel=true a convolution's rows are one block, so its first batch
// loop that runs more than once (the output rows oh) is the scf.parallel, each
// iteration with its own packed buffers and stage.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 parallel=true}' | filecheck %s --check-prefix=PAR

func.func @nhwc(%x: memref<1x6x9x5xf32>, %w: memref<3x3x5x10xf32>, %y: memref<1x4x7x10xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x6x9x5xf32>, memref<3x3x5x10xf32>) outs(%y : memref<1x4x7x10xf32>)
  return
}
// CHECK-LABEL: func.func @nhwc
// CHECK:         scf.for %batch = %c0 to %c1 step %c1 {
// CHECK-NEXT:      scf.for %batch_1 = %c0 to %c4 step %c1 {
// CHECK-NEXT:        scf.for %window = %c0 to %c3 step %c1 {
// CHECK-NEXT:          scf.for %window_1 = %c0 to %c3 step %c1 {
// CHECK:                 scf.for %jc = %c0 to %c10 step
// CHECK:                   vector.load %w[
// CHECK:                   affine.apply
// CHECK:                   memref.load %x[
// CHECK:                   scf.for %k =
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf

// Strided NCHW: C's rows (ow) are not its columns' (f) neighbours, so every
// tile goes through the stage.
func.func @nchw_strided(%x: memref<2x3x9x9xf32>, %w: memref<4x3x3x3xf32>, %y: memref<2x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x3x9x9xf32>, memref<4x3x3x3xf32>) outs(%y : memref<2x4x4x4xf32>)
  return
}
// CHECK-LABEL: func.func @nchw_strided
// CHECK:         scf.for %window = %c0 to %c3 step %c1 {
// CHECK:           memref.store {{.*}}, %stage[
// CHECK:           scf.for %k =
// CHECK:           memref.store {{.*}}, %y[
// CHECK-NOT:     vector.load %y
// CHECK-NOT:     linalg.conv_2d_nchw_fchw

// PAR-LABEL: func.func @nhwc
// PAR:         "scf.parallel"(%c0, %c4, %c1)
// PAR-NEXT:    ^{{.*}}(%batch: index):
// PAR-NEXT:      %packed_rhs = memref.alloc()
// PAR-NEXT:      %packed_lhs = memref.alloc()
// PAR-NEXT:      %stage = memref.alloc()
// PAR:           scf.for %batch_1 = %c0 to %c1 step %c1 {
// PAR-NEXT:        scf.for %window = %c0 to %c3 step %c1 {
// PAR:           memref.dealloc %packed_rhs
// PAR-NEXT:      scf.reduce
