// transform.structured.outline (ByteIR's op, script form): each target op
// becomes a func.call of a new private function holding it. Its arguments
// are the op's operands, then the values defined above that its regions
// use (ByteIR refuses those); a taken name gets the first free `_<n>`
// suffix. The results are the functions and the calls.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(d0) -> (d0)>

// A body using a value defined above (%b), a name already taken (the
// payload function's own): @bias_0.
// CHECK-LABEL: func.func private @bias_0(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[E:.*]]: tensor<4xf32>, %[[B:.*]]: f32) -> tensor<4xf32> {
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK:           arith.addf %{{.*}}, %[[B]] : f32
// CHECK:         func.return %[[R]] : tensor<4xf32>
// CHECK-LABEL: func.func @bias(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[B:.*]]: f32)
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @bias_0(%[[X]], %[[E]], %[[B]]) : (tensor<4xf32>, tensor<4xf32>, f32) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4xf32>
func.func @bias(%x: tensor<4xf32>, %b: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {__a__} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Two results; the op inside a loop, using its induction variable.
// CHECK-LABEL: func.func private @bias_1(
// CHECK-SAME:      %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>, %[[I:.*]]: index) -> (tensor<3xf32>, tensor<3xf32>) {
// CHECK:           arith.index_cast %[[I]] : index to i32
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<3xf32>, tensor<3xf32>
// CHECK-LABEL: func.func @two_results_in_loop(
// CHECK:         scf.for %[[IV:.*]] = {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[Q:.*]] = %{{.*}})
// CHECK-NEXT:      %[[R0:.*]], %[[R1:.*]] = func.call @bias_1(%{{.*}}, %[[P]], %[[Q]], %[[IV]])
// CHECK-NEXT:      scf.yield %[[R0]], %[[R1]] : tensor<3xf32>, tensor<3xf32>
func.func @two_results_in_loop(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r:2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%p = %x, %q = %x) -> (tensor<3xf32>, tensor<3xf32>) {
    %s:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<3xf32>) outs(%p, %q : tensor<3xf32>, tensor<3xf32>) attrs = {__b__} {
    ^bb0(%in: f32, %a: f32, %m: f32):
      %n = arith.index_cast %i : index to i32
      %f = arith.sitofp %n : i32 to f32
      %t = arith.mulf %in, %f : f32
      %u = arith.addf %a, %t : f32
      %v = arith.maximumf %m, %t : f32
      linalg.yield %u, %v : f32, f32
    } -> (tensor<3xf32>, tensor<3xf32>)
    scf.yield %s#0, %s#1 : tensor<3xf32>, tensor<3xf32>
  }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}

// Memrefs: no results. Two targets, each its own function.
// CHECK-LABEL: func.func private @mm(
// CHECK-SAME:      %[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x2xf32>, %[[C:.*]]: memref<2x2xf32>) {
// CHECK-NEXT:    linalg.matmul ins(%[[A]], %[[B]] : memref<2x3xf32>, memref<3x2xf32>) outs(%[[C]] : memref<2x2xf32>)
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @mm_0(
// CHECK-LABEL: func.func @matmuls(
// CHECK-SAME:      %[[A:.*]]: memref<2x3xf32>, %[[B:.*]]: memref<3x2xf32>, %[[C:.*]]: memref<2x2xf32>, %[[D:.*]]: memref<2x2xf32>)
// CHECK-NEXT:    func.call @mm(%[[A]], %[[B]], %[[C]]) : (memref<2x3xf32>, memref<3x2xf32>, memref<2x2xf32>) -> ()
// CHECK-NEXT:    func.call @mm_0(%[[A]], %[[B]], %[[D]]) : (memref<2x3xf32>, memref<3x2xf32>, memref<2x2xf32>) -> ()
func.func @matmuls(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>, %d: memref<2x2xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%d : memref<2x2xf32>)
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__a__} in %root : (!pdl.operation) -> !pdl.operation
  %f0, %c0 = transform.structured.outline %0 {func_name = "bias"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  %1 = transform.structured.match attributes {__b__} in %root : (!pdl.operation) -> !pdl.operation
  %f1, %c1 = transform.structured.outline %1 {func_name = "bias"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  %2 = transform.structured.match ops{["linalg.matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  %f2, %c2 = transform.structured.outline %2 {func_name = "mm"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}
