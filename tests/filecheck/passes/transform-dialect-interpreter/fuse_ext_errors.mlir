// What fuse_ext and fuse_operands refuse: one located error at the
// transform op naming the payload op and the reason (exit code 1, the
// payload left as it was before the pass).
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// A softmax as the root, tiled along its dimension.
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
  // expected-error @below {{'transform.structured.fuse_ext' op linalg_ext.softmax cannot be tiled along loop 1: it must stay whole (target: linalg_ext.softmax at}}
  %t, %l:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 4]}
}

// -----

func.func @not_tileable(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.return"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op only TilingInterface ops are supported (target: func.return at}}
  %t, %l = transform.structured.fuse_ext %0 {tile_sizes = [2]}
}

// -----

func.func @too_many_sizes(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op linalg.exp has 1 loops but 2 tile sizes were given (target: linalg.exp at}}
  %t, %l:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 2]}
}

// -----

// ByteIR's rule: with a stop handle, one target only.
func.func @two_targets(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.exp ins(%0 : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op only support one target payload operation when using stop operands}}
  %t, %l = transform.structured.fuse_ext %0, %0 {tile_sizes = [2]}
}

// -----

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op expects interchange to be a permutation, found [1, 1]}}
  %t, %l:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 2], tile_interchange = [1, 1]}
}

// -----

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op expects 2 loop results, got 1}}
  %t, %l = "transform.structured.fuse_ext"(%0) <{tile_sizes = [2, 2]}> : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// expect_whole_graph_fusion: tiled along the softmax's dimension, the
// softmax and its fills cannot fuse; the error names them, at the first.
func.func @partial(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %v = tensor.empty() : tensor<8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = linalg.fill ins(%ninf : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e, %m, %a, %v : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  %n = linalg.exp ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s#0, %n : tensor<8x8xf32>, tensor<8x8xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["func.return"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_operands' op expect_whole_graph_fusion: 3 op(s) stayed outside the loops (linalg.fill, linalg_ext.softmax) (target: linalg.fill at}}
  %1, %loops:2 = transform.structured.fuse_operands %0 {tile_nums = [2, 2], expect_whole_graph_fusion = true}
}

// -----

// Operands of different shapes cannot share one loop nest.
func.func @shapes(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  return %a, %b : tensor<4x8xf32>, tensor<8x4xf32>
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["func.return"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_operands' op the operands of func.return must have one shape to be tiled together (tensor<4x8xf32> and tensor<8x4xf32>) (target: func.return at}}
  %1, %loops:2 = transform.structured.fuse_operands %0 {tile_nums = [2, 2]}
}
