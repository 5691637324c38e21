// What convert-ccl-to-single-device refuses: one error at the all-reduce.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p convert-ccl-to-single-device

func.func @two_devices(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @below {{convert-ccl-to-single-device: 'ccl.all_reduce' op replica groups [[0, 1]] name replica 1, but there is one device (the op is in no scf.forall)}}
  %s = "ccl.all_reduce"(%x) {reduction = "sum", replica_groups = [[0, 1]]} : (tensor<3xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

func.func @two_groups(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    // expected-error @below {{convert-ccl-to-single-device: 'ccl.all_reduce' op replica groups [[0, 2], [1, 3]] of several groups of several replicas are not supported by the single-device lowering}}
    %s = "ccl.all_reduce"(%row) {reduction = "sum", replica_groups = [[0, 2], [1, 3]]} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}

// -----

func.func @dynamic_bounds(%x: tensor<4x3xf32>, %n: index) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.forall (%i) in (%n) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    // expected-error @below {{convert-ccl-to-single-device: 'ccl.all_reduce' op needs the bounds of its scf.forall to be constants}}
    %s = "ccl.all_reduce"(%row) {reduction = "sum"} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}

// -----

func.func @missing_replica(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    // expected-error @below {{convert-ccl-to-single-device: 'ccl.all_reduce' op replica groups [[0, 1, 3]] leave out replicas [2] of the 4 iterations of its scf.forall}}
    %s = "ccl.all_reduce"(%row) {reduction = "sum", replica_groups = [[0, 1, 3]]} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}
