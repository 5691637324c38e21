// Float elements of dense attributes written in hex are bit patterns of the
// element type (MLIR prints non-finite values so); they print back as
// xDSL prints them (lower-case hex, which upstream reads), and +0.0/-0.0 is
// not a splat.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s

// CHECK: dense<[0xff800000, 1.000000e+00, 0x7fc00000]> : tensor<3xf32>
%a = "test.op"() {v = dense<[0xFF800000, 1.0, 0x7FC00000]> : tensor<3xf32>} : () -> i1
// CHECK: dense<0xff800000> : tensor<4xf32>
%b = "test.op"() {v = dense<0xFF800000> : tensor<4xf32>} : () -> i1
// CHECK: dense<[0xfc00, -0.000000e+00]> : tensor<2xf16>
%c = "test.op"() {v = dense<[0xFC00, -0.0]> : tensor<2xf16>} : () -> i1
// CHECK: dense<[0xfff0000000000000, 1.000000e+00]> : tensor<2xf64>
%d = "test.op"() {v = dense<[0xFFF0000000000000, 1.0]> : tensor<2xf64>} : () -> i1
// CHECK: dense<[0xff80, 1.000000e+00]> : tensor<2xbf16>
%g = "test.op"() {v = dense<[0xFF80, 1.0]> : tensor<2xbf16>} : () -> i1
// CHECK: dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
%e = "test.op"() {v = dense<[0.0, -0.0]> : tensor<2xf32>} : () -> i1
// CHECK: dense<[255, 1]> : tensor<2xi32>
%i = "test.op"() {v = dense<[0xFF, 1]> : tensor<2xi32>} : () -> i1
