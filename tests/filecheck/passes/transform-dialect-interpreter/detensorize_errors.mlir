// What detensorize refuses: one located error at the transform op naming
// the payload op, the payload unchanged (every target is checked first).
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// Not a Linalg op (ByteIR's message).
func.func @not_linalg() -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  return %e : tensor<f32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["tensor.empty"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op detensorize transformation should be applied on linalg op (target: tensor.empty at}}
  transform.structured.detensorize %0
}

// -----

// An op with loops, after one that could be detensorized: neither changes.
func.func @with_loops(%a: tensor<f32>, %x: tensor<4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %y = linalg.exp ins(%a : tensor<f32>) outs(%a : tensor<f32>) -> tensor<f32>
  %z = linalg.exp ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %y, %z : tensor<f32>, tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op linalg.exp has 1 loop: only ops without loops (on 0-d tensors and scalars) are detensorized (target: linalg.exp at}}
  transform.structured.detensorize %0
}

// -----

// On memrefs (ByteIR refuses them too: no pure tensor semantics).
func.func @on_memrefs(%a: memref<f32>, %b: memref<f32>) {
  linalg.exp ins(%a : memref<f32>) outs(%b : memref<f32>)
  return
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op linalg.exp works on memrefs: only ops on tensors are detensorized (target: linalg.exp at}}
  transform.structured.detensorize %0
}

// -----

// A generic with a loop, whose input is a scalar.
func.func @scalar_loop(%s: f32, %o: tensor<3xf32>) -> tensor<3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : f32) outs(%o : tensor<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op linalg.generic has 1 loop: only ops without loops (on 0-d tensors and scalars) are detensorized (target: linalg.generic at}}
  transform.structured.detensorize %0
}

// -----

// A linalg_ext op is not a Linalg op.
func.func @softmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  %out = tensor.empty() : tensor<4xf32>
  %s = tensor.empty() : tensor<f32>
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<4xf32>)
      outs(%out, %s, %s, %s : tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>)
      : tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>
  return %r#0 : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op detensorize transformation should be applied on linalg op (target: linalg_ext.softmax at}}
  transform.structured.detensorize %0
}

// -----

// No loops, but an operand of rank 1 read at a constant index.
func.func @constant_index(%x: tensor<1xf32>, %o: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<() -> (0)>, affine_map<() -> ()>], iterator_types = []}
      ins(%x : tensor<1xf32>) outs(%o : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op linalg.generic is not on 0-d tensors: operand #0 is tensor<1xf32> (target: linalg.generic at}}
  transform.structured.detensorize %0
}

// -----

// linalg.index in an op without loops (xDSL's verifier lets it through).
func.func @index_without_loops(%o: tensor<index>) -> tensor<index> {
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>], iterator_types = []} outs(%o : tensor<index>) {
  ^bb0(%b: index):
    %i = linalg.index 0 : index
    linalg.yield %i : index
  } -> tensor<index>
  return %r : tensor<index>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.detensorize' op linalg.generic reads linalg.index but has no loops (target: linalg.generic at}}
  transform.structured.detensorize %0
}
