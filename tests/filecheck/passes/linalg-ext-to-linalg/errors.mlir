// What linalg-ext-to-linalg refuses, with a message naming the op and the
// reason; the module is then left unchanged. The op reads all its inputs
// before writing any output; its decomposition writes the outputs one after
// the other and reads some back, so two outputs cannot share a memref.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p linalg-ext-to-linalg | filecheck %s

func.func @softmax_max_is_scale(%x: memref<3x2xf32>, %o: memref<3x2xf32>, %m: memref<2xf32>, %a: memref<2xf32>) {
  linalg_ext.unnorm_softmax dimension(0) ins(%x : memref<3x2xf32>) outs(%o, %m, %a, %m : memref<3x2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
  return
}
// CHECK: linalg-ext-to-linalg: 'linalg_ext.unnorm_softmax': the max and scale outputs are the same buffer; pass distinct buffers

// -----

func.func @layer_norm_mean_is_rstd(%x: memref<3x2xf32>, %o: memref<3x2xf32>, %s: memref<3xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x : memref<3x2xf32>) outs(%o, %s, %s : memref<3x2xf32>, memref<3xf32>, memref<3xf32>)
  return
}
// CHECK: linalg-ext-to-linalg: 'linalg_ext.layer_norm': the mean and rstd outputs are the same buffer; pass distinct buffers
