// Convolutions and pooling: the window loops are innermost reductions the
// output map does not use, so the output element is carried through them;
// the input is indexed by affine.apply of an output loop and a window loop
// (with strides and dilations folded into the map). With 64 or more output
// channels (or a dynamic count), nhwc_hwcf's f loop, along which the output
// and the filter are unit-stride and the input invariant, runs innermost
// instead (so that LLVM vectorises it), after the window loops.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

func.func @conv_nhwc_hwcf(%in: memref<1x5x5x2xf32>, %filter: memref<3x3x2x4xf32>, %out: memref<1x3x3x4xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x5x5x2xf32>, memref<3x3x2x4xf32>) outs(%out : memref<1x3x3x4xf32>)
  return
}
// CHECK-LABEL: func.func @conv_nhwc_hwcf(
// CHECK:         scf.for %[[N:.*]] = %c0 to %c1 step %c1 {
// CHECK-NEXT:      scf.for %[[H:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:        scf.for %[[W:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:          scf.for %[[F:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:            %[[INIT:.*]] = memref.load %out[%[[N]], %[[H]], %[[W]], %[[F]]] : memref<1x3x3x4xf32>
// CHECK-NEXT:            %[[R:.*]] = scf.for %[[KH:.*]] = %c0 to %c3 step %c1 iter_args(%[[A0:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:              %[[R1:.*]] = scf.for %[[KW:.*]] = %c0 to %c3 step %c1 iter_args(%[[A1:.*]] = %[[A0]]) -> (f32) {
// CHECK-NEXT:                %[[R2:.*]] = scf.for %[[C:.*]] = %c0 to %c2 step %c1 iter_args(%[[A2:.*]] = %[[A1]]) -> (f32) {
// CHECK-NEXT:                  %[[Y:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[H]], %[[KH]])
// CHECK-NEXT:                  %[[X:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[W]], %[[KW]])
// CHECK-NEXT:                  %[[V:.*]] = memref.load %in[%[[N]], %[[Y]], %[[X]], %[[C]]] : memref<1x5x5x2xf32>
// CHECK-NEXT:                  %[[G:.*]] = memref.load %filter[%[[KH]], %[[KW]], %[[C]], %[[F]]] : memref<3x3x2x4xf32>
// CHECK-NEXT:                  %[[P:.*]] = arith.mulf %[[V]], %[[G]] : f32
// CHECK-NEXT:                  %[[S:.*]] = arith.addf %[[A2]], %[[P]] : f32
// CHECK-NEXT:                  scf.yield %[[S]] : f32
// CHECK:                   memref.store %[[R]], %out[%[[N]], %[[H]], %[[W]], %[[F]]] : memref<1x3x3x4xf32>

func.func @conv_nhwc_hwcf_wide(%in: memref<1x4x4x2xf32>, %filter: memref<3x3x2x64xf32>, %out: memref<1x2x2x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x4x4x2xf32>, memref<3x3x2x64xf32>) outs(%out : memref<1x2x2x64xf32>)
  return
}
// CHECK-LABEL: func.func @conv_nhwc_hwcf_wide(
// CHECK:         scf.for %[[N:.*]] = %c0 to %c1 step %c1 {
// CHECK-NEXT:      scf.for %[[H:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:        scf.for %[[W:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:          scf.for %[[KH:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:            scf.for %[[KW:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:              scf.for %[[C:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:                scf.for %[[F:.*]] = %c0 to %c64 step %c1 {
// CHECK-NEXT:                  %[[Y:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[H]], %[[KH]])
// CHECK-NEXT:                  %[[X:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[W]], %[[KW]])
// CHECK-NEXT:                  %[[V:.*]] = memref.load %in[%[[N]], %[[Y]], %[[X]], %[[C]]] : memref<1x4x4x2xf32>
// CHECK-NEXT:                  %[[G:.*]] = memref.load %filter[%[[KH]], %[[KW]], %[[C]], %[[F]]] : memref<3x3x2x64xf32>
// CHECK-NEXT:                  %[[O:.*]] = memref.load %out[%[[N]], %[[H]], %[[W]], %[[F]]] : memref<1x2x2x64xf32>
// CHECK-NEXT:                  %[[P:.*]] = arith.mulf %[[V]], %[[G]] : f32
// CHECK-NEXT:                  %[[S:.*]] = arith.addf %[[O]], %[[P]] : f32
// CHECK-NEXT:                  memref.store %[[S]], %out[%[[N]], %[[H]], %[[W]], %[[F]]] : memref<1x2x2x64xf32>

func.func @conv_nchw_fchw_strided(%in: memref<1x2x7x7xf32>, %filter: memref<3x2x2x2xf32>, %out: memref<1x3x3x3xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : memref<1x2x7x7xf32>, memref<3x2x2x2xf32>) outs(%out : memref<1x3x3x3xf32>)
  return
}
// CHECK-LABEL: func.func @conv_nchw_fchw_strided(
// CHECK:         affine.apply affine_map<(d0, d1) -> (((d0 * 2) + d1))>

func.func @conv_nhwc_fhwc_dilated(%in: memref<1x6x6x2xi32>, %filter: memref<2x2x2x2xi32>, %out: memref<1x4x4x2xi32>) {
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x2xi32>, memref<2x2x2x2xi32>) outs(%out : memref<1x4x4x2xi32>)
  return
}
// CHECK-LABEL: func.func @conv_nhwc_fhwc_dilated(
// CHECK:         affine.apply affine_map<(d0, d1) -> ((d0 + (d1 * 2)))>
// CHECK:         arith.muli
// CHECK-NEXT:    arith.addi

func.func @conv_grouped(%in: memref<1x2x2x4x4xf32>, %filter: memref<2x2x2x2x2xf32>, %out: memref<1x2x2x3x3xf32>,
                        %in2: memref<1x4x4x2x2xf32>, %filter2: memref<2x2x2x2x2xf32>, %out2: memref<1x3x3x2x2xf32>,
                        %filter3: memref<2x2x2x2x2xf32>, %out3: memref<1x2x2x3x3xf32>) {
  linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x2x2x4x4xf32>, memref<2x2x2x2x2xf32>) outs(%out : memref<1x2x2x3x3xf32>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter3 : memref<1x2x2x4x4xf32>, memref<2x2x2x2x2xf32>) outs(%out3 : memref<1x2x2x3x3xf32>)
  linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in2, %filter2 : memref<1x4x4x2x2xf32>, memref<2x2x2x2x2xf32>) outs(%out2 : memref<1x3x3x2x2xf32>)
  return
}
// CHECK-LABEL: func.func @conv_grouped(
// CHECK-COUNT-3: memref.store %{{.*}}, %out{{.*}} : memref<1x{{.*}}xf32>

// Pooling: the window operand gives the window loops' extents only.
func.func @pooling_nchw_max(%in: memref<1x2x4x4xf32>, %window: memref<2x2xf32>, %out: memref<1x2x2x2xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %window : memref<1x2x4x4xf32>, memref<2x2xf32>) outs(%out : memref<1x2x2x2xf32>)
  return
}
// CHECK-LABEL: func.func @pooling_nchw_max(
// CHECK:         %[[R:.*]] = scf.for %[[KH:.*]] = %c0 to %c2 step %c1 iter_args
// CHECK-NEXT:      scf.for %[[KW:.*]] = %c0 to %c2 step %c1 iter_args(%[[A:.*]] = %{{.*}}) -> (f32) {
// CHECK:             %[[V:.*]] = memref.load %in
// CHECK-NEXT:        %[[M:.*]] = arith.maximumf %[[A]], %[[V]] : f32
// CHECK-NOT:         memref.load %window
// CHECK:           memref.store %[[R]], %out
