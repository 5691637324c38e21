// What convert-scf-to-cf-ext refuses, with a message naming the op and the
// reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-scf-to-cf-ext | filecheck %s

func.func @forall_on_tensors(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}
// CHECK: convert-scf-to-cf-ext: 'scf.forall' has shared outputs (tensors): bufferize first (one-shot-bufferize)
