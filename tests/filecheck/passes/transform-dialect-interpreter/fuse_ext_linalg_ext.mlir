// transform.structured.fuse_ext with linalg_ext roots and producers, each
// op's model saying what may fuse. A scan tiled along its dimension (a
// reduction: the accumulator is carried across the column tiles) keeps its
// accumulator's fill before the loops; along its rows only, as the
// producer of a negf, it is fused with that fill. A topk tiled along its
// rows fuses the exp it reads and the fill of its values. A
// linalg_ext.batch_matmul and its zero fill fuse into the loops of the
// negf that reads it (its k dimension stays whole in each tile). A softmax
// whose result #0 feeds the root and whose max (#1) is returned: fused,
// the max tiles yielded from the loops.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @scan_root(
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]], %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e, %{{.*}} = %[[ACC]]) -> (tensor<8x16xf32>, tensor<8xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}) -> (tensor<8x16xf32>, tensor<8xf32>) {
// CHECK:             %[[EXP:.*]] = linalg.exp ins(%{{.*}} : tensor<4x8xf32>)
// CHECK-NEXT:        %[[OS:.*]] = tensor.extract_slice %[[O]][%[[I]], %[[J]]] [4, 8] [1, 1]
// CHECK-NEXT:        %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]]] [4] [1]
// CHECK-NEXT:        linalg_ext.scan dimension(1) inclusive(true) ins(%[[EXP]] : tensor<4x8xf32>) outs(%[[OS]], %[[AS]] : tensor<4x8xf32>, tensor<4xf32>)
// CHECK-NOT:     linalg.fill
// CHECK:         func.return %[[R]] : tensor<8x16xf32>
func.func @scan_root(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %u = linalg.exp ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ea = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<8xf32>) -> tensor<8xf32>
  %s:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%u : tensor<8x16xf32>) outs(%e, %acc : tensor<8x16xf32>, tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    linalg_ext.yield %r : f32
  } -> tensor<8x16xf32>, tensor<8xf32>
  return %s#0 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @scan_producer(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %e) -> (tensor<8x16xf32>) {
// CHECK:           %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:      %[[S:.*]], %{{.*}} = linalg_ext.scan dimension(1) inclusive(true) ins(%{{.*}} : tensor<4x16xf32>) outs(%{{.*}}, %[[F]] : tensor<4x16xf32>, tensor<4xf32>)
// CHECK:           linalg.negf {__root__} ins(%[[S]] : tensor<4x16xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<8x16xf32>
func.func @scan_producer(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %ea = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<8xf32>) -> tensor<8xf32>
  %s:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<8x16xf32>) outs(%e, %acc : tensor<8x16xf32>, tensor<8xf32>) {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    linalg_ext.yield %r : f32
  } -> tensor<8x16xf32>, tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %n = linalg.negf {__root__} ins(%s#0 : tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %n : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @topk_root(
// CHECK-NOT:     linalg.
// CHECK:         %[[V:.*]], %[[IX:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OV:.*]] = %{{.*}}, %[[OI:.*]] = %{{.*}}) -> (tensor<16x3xf32>, tensor<16x3xi32>) {
// CHECK-NEXT:      %[[XS:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [4, 10] [1, 1]
// CHECK-NEXT:      tensor.{{extract_slice|empty}}
// CHECK-NEXT:      %[[EXP:.*]] = linalg.exp ins(%[[XS]] : tensor<4x10xf32>)
// CHECK-NEXT:      %[[VS:.*]] = tensor.extract_slice %[[OV]][%[[I]], 0] [4, 3] [1, 1]
// CHECK-NEXT:      %[[VF:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[VS]] : tensor<4x3xf32>)
// CHECK-NEXT:      %[[IS:.*]] = tensor.extract_slice %[[OI]][%[[I]], 0] [4, 3] [1, 1]
// CHECK-NEXT:      linalg_ext.topk dimension(1) ins(%[[EXP]] : tensor<4x10xf32>) outs(%[[VF]], %[[IS]] : tensor<4x3xf32>, tensor<4x3xi32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[V]], %[[IX]] : tensor<16x3xf32>, tensor<16x3xi32>
func.func @topk_root(%x: tensor<16x10xf32>) -> (tensor<16x3xf32>, tensor<16x3xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16x10xf32>
  %u = linalg.exp ins(%x : tensor<16x10xf32>) outs(%e : tensor<16x10xf32>) -> tensor<16x10xf32>
  %v = tensor.empty() : tensor<16x3xf32>
  %vf = linalg.fill ins(%ninf : f32) outs(%v : tensor<16x3xf32>) -> tensor<16x3xf32>
  %i = tensor.empty() : tensor<16x3xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%u : tensor<16x10xf32>) outs(%vf, %i : tensor<16x3xf32>, tensor<16x3xi32>) {
  ^bb0(%p: f32, %q: f32):
    %gt = arith.cmpf ogt, %p, %q : f32
    linalg_ext.yield %gt : i1
  } -> tensor<16x3xf32>, tensor<16x3xi32>
  return %r#0, %r#1 : tensor<16x3xf32>, tensor<16x3xi32>
}

// CHECK-LABEL: func.func @batch_matmul_producer(
// CHECK-NOT:     linalg
// CHECK:         scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             %[[EXP:.*]] = linalg.exp ins(%{{.*}} : tensor<2x4x16xf32>)
// CHECK:             %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK-NEXT:        %[[BM:.*]] = linalg_ext.batch_matmul ins(%[[EXP]], %{{.*}} : tensor<2x4x16xf32>, tensor<2x16x8xf32>) outs(%[[F]] : tensor<2x4x8xf32>) layout = "nn"
// CHECK:             linalg.negf {__root__} ins(%[[BM]] : tensor<2x4x8xf32>)
// CHECK-NOT:     linalg
// CHECK:         func.return
func.func @batch_matmul_producer(%a: tensor<4x8x16xf32>, %b: tensor<4x16x8xf32>) -> tensor<4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<4x8x16xf32>
  %u = linalg.exp ins(%a : tensor<4x8x16xf32>) outs(%ea : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x8x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %r = linalg_ext.batch_matmul ins(%u, %b : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%c : tensor<4x8x8xf32>) layout = "nn"
  %n = linalg.negf {__root__} ins(%r : tensor<4x8x8xf32>) outs(%e : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %n : tensor<4x8x8xf32>
}

// CHECK-LABEL: func.func @multi_result(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]], %[[MAX:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %e, %[[M:.*]] = %{{.*}}) -> (tensor<16x8xf32>, tensor<16xf32>) {
// CHECK:           %[[P:.*]], %[[PM:.*]], %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%{{.*}} : tensor<4x8xf32>)
// CHECK:           %[[T:.*]] = linalg.exp {__root__} ins(%[[P]] : tensor<4x8xf32>)
// CHECK-NEXT:      %[[W0:.*]] = tensor.insert_slice %[[T]] into %[[O]][%[[I]], 0] [4, 8] [1, 1]
// CHECK-NEXT:      %[[W1:.*]] = tensor.insert_slice %[[PM]] into %[[M]][%[[I]]] [4] [1]
// CHECK-NEXT:      scf.yield %[[W0]], %[[W1]] : tensor<16x8xf32>, tensor<16xf32>
// CHECK-NOT:     linalg
// CHECK:         func.return %[[R]], %[[MAX]] : tensor<16x8xf32>, tensor<16xf32>
func.func @multi_result(%x: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %v = tensor.empty() : tensor<16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<16x8xf32>)
      outs(%e, %max, %sum, %v : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      : tensor<16x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  %r = linalg.exp {__root__} ins(%s#0 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %r, %s#1 : tensor<16x8xf32>, tensor<16xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "scan_root"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match ops{["linalg_ext.scan"]} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 8], tile_interchange = [0, 1]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "scan_producer"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [4]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.topk"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [4]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "batch_matmul_producer"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 4]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "multi_result"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [4]}
  cleanup
}
