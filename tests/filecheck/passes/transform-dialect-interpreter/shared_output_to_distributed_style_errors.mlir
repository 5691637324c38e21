// What shared_output_to_distributed_style refuses: one located error at the
// transform op naming the payload op. ByteIR's checks, with its messages, and
// the assumptions ByteIR does not check (a merge whose combiner has no
// all-reduce, a fill that is not the reduction's identity, a loop that also
// tiles a parallel dimension, a loop result used elsewhere).
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// The template: a row sum of 2 columns over 2 iterations, the merge's
// combiner and the fill value given by each case.
func.func @handles_swapped(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<2x2xf32>) {
    %in = tensor.extract_slice %x[0, %t] [2, 1] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[0, %t] [2, 1] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<2x2xf32>) outs(%out : tensor<2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %merged : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op loop op is supposed to be of type scf.forall op (target: linalg.fill at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %init, %loop, %merge
}

// -----

func.func @sizes_differ(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %again = linalg.fill ins(%zero : f32) outs(%out : tensor<2xf32>) -> tensor<2xf32>
  return %again : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %f = transform.structured.match ops{["func.func"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op the size of loop, init, merge should be the same}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %f, %init, %f
}

// -----

// arith.maxnumf ignores a NaN; the all-reduce's max propagates it.
func.func @maxnumf(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  %low = arith.constant 0xFF800000 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%low : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<2x2xf32>) {
    %in = tensor.extract_slice %x[0, %t] [2, 1] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[0, %t] [2, 1] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<2x2xf32>) outs(%out : tensor<2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maxnumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %merged : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op fails to get reduce type: arith.maxnumf matches no all-reduce (supported: arith.addf, arith.addi, arith.maximumf, arith.maxsi, arith.minimumf, arith.minsi, arith.mulf, arith.muli) (target: linalg.generic at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}

// -----

// Each iteration would start from 1, not from the sum's identity.
func.func @fill_not_identity(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<2x2xf32>) {
    %in = tensor.extract_slice %x[0, %t] [2, 1] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[0, %t] [2, 1] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<2x2xf32>) outs(%out : tensor<2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %merged : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op expects the fill value to be the identity of the 'sum' reduction (target: linalg.fill at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}

// -----

// The loop also splits the rows: its slices are half the merged result (ByteIR
// would all-reduce the partial sums of different rows together).
func.func @rows_split_too(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> tensor<2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %partial = scf.forall (%r, %t) in (2, 2) shared_outs(%acc = %init) -> (tensor<2x2xf32>) {
    %in = tensor.extract_slice %x[%r, %t] [1, 1] [1, 1] : tensor<2x2xf32> to tensor<1xf32>
    %mine = tensor.extract_slice %acc[%r, %t] [1, 1] [1, 1] : tensor<2x2xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[%r, %t] [1, 1] [1, 1] : tensor<1xf32> into tensor<2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<2x2xf32>) outs(%out : tensor<2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %merged : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op expects the loop's slices of its shared output to be the whole merged result tensor<2xf32>, got tensor<1xf32> (target: tensor.extract_slice at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}

// -----

// The partial results are also returned.
func.func @loop_result_used_twice(%x: tensor<2x2xf32>, %out: tensor<2xf32>) -> (tensor<2xf32>, tensor<2x2xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2xf32>) -> tensor<2x2xf32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<2x2xf32>) {
    %in = tensor.extract_slice %x[0, %t] [2, 1] [1, 1] : tensor<2x2xf32> to tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[0, %t] [2, 1] [1, 1] : tensor<2xf32> into tensor<2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<2x2xf32>) outs(%out : tensor<2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %merged, %partial : tensor<2xf32>, tensor<2x2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op expects the merge to be the only user of the loop's result (target: scf.forall at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}

// -----

// The merge transposes the partial results into its output: the all-reduced
// partial (in the loop's layout) merged elementwise into the output would
// be transposed (ByteIR builds it, with wrong values, when the shape is square).
func.func @merge_transposes(%x: tensor<2x2x2xf32>, %out: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<2x2x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<2x2x2xf32>) {
    %in = tensor.extract_slice %x[0, 0, %t] [2, 2, 1] [1, 1, 1] : tensor<2x2x2xf32> to tensor<2x2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %in into %acc[0, 0, %t] [2, 2, 1] [1, 1, 1] : tensor<2x2xf32> into tensor<2x2x2xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%partial : tensor<2x2x2xf32>) outs(%out : tensor<2x2xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %merged : tensor<2x2xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.shared_output_to_distributed_style' op expects the merge to read the partial results in the layout of its output, plus the reduced dimension (target: linalg.generic at}}
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}
