// What tile_ext and lower_to_loops refuse: one located error at the
// transform op naming the payload op, the payload unchanged.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// ByteIR's validity check: a softmax tiled along its dimension.
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %out = tensor.empty() : tensor<4x8xf32>
  %s = tensor.empty() : tensor<4xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>)
      outs(%out, %s, %s, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0 : tensor<4x8xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op unsupported tiling dim 1 of linalg_ext.softmax: it must stay whole (target: linalg_ext.softmax at}}
  %t, %l:2 = transform.structured.tile_ext %0 [2, 4]
}

// -----

// topk along its dimension (ByteIR tiles it; the K first of a tile are not
// the K first of the row).
func.func @topk(%x: tensor<4x10xf32>) -> tensor<4x3xf32> {
  %v = tensor.empty() : tensor<4x3xf32>
  %i = tensor.empty() : tensor<4x3xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%x : tensor<4x10xf32>) outs(%v, %i : tensor<4x3xf32>, tensor<4x3xi32>) {
  ^bb0(%p: f32, %q: f32):
    %gt = arith.cmpf ogt, %p, %q : f32
    linalg_ext.yield %gt : i1
  } -> tensor<4x3xf32>, tensor<4x3xi32>
  return %r#0 : tensor<4x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.topk"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op unsupported tiling dim 1 of linalg_ext.topk: it must stay whole (target: linalg_ext.topk at}}
  %t, %l:2 = transform.structured.tile_ext %0 [2, 5] {interchange = [0, 1, 2]}
}

// -----

// An op on memrefs (ByteIR tiles those too; our tiling is on tensors).
func.func @on_memrefs(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op tiling works on tensors, not on memrefs (target: linalg.matmul at}}
  %t, %l = transform.structured.tile_ext %0 [2]
}

// -----

func.func @not_tileable(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.return"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op only ops implementing TilingInterface are supported (target: func.return at}}
  %t, %l = transform.structured.tile_ext %0 [2]
}

// -----

func.func @too_many_sizes(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op linalg.exp has 1 loops but 2 tile sizes were given (target: linalg.exp at}}
  %t, %l:2 = transform.structured.tile_ext %0 [2, 2]
}

// -----

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op expects 2 loop results, got 1}}
  %t, %l = "transform.structured.tile_ext"(%0) <{static_sizes = array<i64: 2, 2>, interchange = array<i64>}> : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// lower_to_loops works on buffers: an op with results is refused
// (upstream's words), as is a loop id beyond the op's loops.
func.func @on_tensors(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.lower_to_loops' op linalg.exp works on tensors: unable to lower to loops operations with return values (bufferize first) (target: linalg.exp at}}
  %l = transform.structured.lower_to_loops %0 [0]
}

// -----

func.func @exp(%a: memref<4x2xf32>, %b: memref<4x2xf32>) {
  linalg.exp ins(%a : memref<4x2xf32>) outs(%b : memref<4x2xf32>)
  return
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.lower_to_loops' op invalid loop id -3: linalg.exp has 2 loops (target: linalg.exp at}}
  %l:2 = transform.structured.lower_to_loops %0 [0, -3]
}

// -----

func.func @scan(%x: memref<4xf32>, %o: memref<4xf32>, %c: memref<f32>) {
  linalg_ext.scan dimension(0) inclusive(true) ins(%x : memref<4xf32>) outs(%o, %c : memref<4xf32>, memref<f32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    linalg_ext.yield %s : f32
  }
  return
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.scan"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.lower_to_loops' op linalg_ext.scan is not a Linalg structured op (convert-linalg-ext-to-loops lowers linalg_ext ops) (target: linalg_ext.scan at}}
  %l = transform.structured.lower_to_loops %0 [0]
}

// -----

// A size handle holds one op per target.
func.func @sizes(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %one = arith.constant {size} 1 : index
  %two = arith.constant {size} 2 : index
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  %s = transform.structured.match attributes {size} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.tile_ext' op expected as many dynamic size-producing operations (2) as target ops (1)}}
  %t, %l = transform.structured.tile_ext %0 [%s]
}
