// linalg_ext.softmax and transform.structured.fuse_ext, in ByteIR's script
// form. As the root, tiled along its rows (its dimension stays whole): its
// max and sum fills are fused (a row's reductions start from them in its
// own tile), as is the product it reads; tile_loop_hint marks the loop
// __byteir_parallel__. As the producer of a consumer tiled along rows only,
// it is fused with its fills; tiled along its dimension too, it cannot be
// (a tile of columns needs the whole row's max and sum): it stays before
// the loops, whole, and the loops read slices of its result.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @softmax_root(
// CHECK-SAME:      %[[X:.*]]: tensor<32x16xf32>, %[[Y:.*]]: tensor<32x16xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[S:.*]], %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O:.*]] = %e, %[[M:.*]] = %{{.*}}, %[[A:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) {
// CHECK-NEXT:      %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [8, 16] [1, 1]
// CHECK-NEXT:      %[[YS:.*]] = tensor.extract_slice %[[Y]][%[[I]], 0] [8, 16] [1, 1]
// CHECK-NEXT:      tensor.{{extract_slice|empty}}
// CHECK-NEXT:      %[[IN:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%[[XS]], %[[YS]] : tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT:      %[[OS:.*]] = tensor.extract_slice %[[O]][%[[I]], 0] [8, 16] [1, 1]
// CHECK-NEXT:      %[[MS:.*]] = tensor.extract_slice %[[M]][%[[I]]] [8] [1]
// CHECK-NEXT:      %[[MF:.*]] = linalg.fill ins(%ninf : f32) outs(%[[MS]] : tensor<8xf32>)
// CHECK-NEXT:      %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]]] [8] [1]
// CHECK-NEXT:      %[[AF:.*]] = linalg.fill ins(%zero : f32) outs(%[[AS]] : tensor<8xf32>)
// CHECK-NEXT:      %[[CS:.*]] = tensor.extract_slice %[[C]][%[[I]]] [8] [1]
// CHECK-NEXT:      linalg_ext.softmax dimension(1) ins(%[[IN]] : tensor<8x16xf32>) outs(%[[OS]], %[[MF]], %[[AF]], %[[CS]] : tensor<8x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
// CHECK:           scf.yield
// CHECK-NEXT:    } {__byteir_parallel__}
// CHECK-NEXT:    func.return %[[S]] : tensor<32x16xf32>
func.func @softmax_root(%x: tensor<32x16xf32>, %y: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %v0 = tensor.empty() : tensor<32xf32>
  %v1 = tensor.empty() : tensor<32xf32>
  %v2 = tensor.empty() : tensor<32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%v1 : tensor<32xf32>) -> tensor<32xf32>
  %in = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%x, %y : tensor<32x16xf32>, tensor<32x16xf32>) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%in : tensor<32x16xf32>)
      outs(%e, %max, %sum, %v2 : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
      : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  return %s#0 : tensor<32x16xf32>
}

// The log of the softmax tiled by 8 rows: softmax and fills inside.
// CHECK-LABEL: func.func @softmax_then_rows(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %e) -> (tensor<32x16xf32>) {
// CHECK:           %[[MF:.*]] = linalg.fill ins(%ninf : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:      %[[AF:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:      %[[P:.*]], %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%{{.*}} : tensor<8x16xf32>) outs(%{{.*}}, %[[MF]], %[[AF]], %{{.*}} :
// CHECK-NEXT:      %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [8, 16] [1, 1]
// CHECK-NEXT:      linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%[[P]] : tensor<8x16xf32>) outs(%[[OUT]] : tensor<8x16xf32>)
// CHECK:           scf.yield
// CHECK-NEXT:    } {__byteir_parallel__}
// CHECK-NEXT:    func.return %[[R]] : tensor<32x16xf32>
func.func @softmax_then_rows(%x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %v0 = tensor.empty() : tensor<32xf32>
  %v1 = tensor.empty() : tensor<32xf32>
  %v2 = tensor.empty() : tensor<32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%v1 : tensor<32xf32>) -> tensor<32xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<32x16xf32>)
      outs(%e, %max, %sum, %v2 : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
      : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%s#0 : tensor<32x16xf32>) outs(%e2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// The same tiled 8 rows x 4 columns: the softmax and its fills stay before
// the loops, whole; both loops walk parallel dimensions of the log.
// CHECK-LABEL: func.func @softmax_then_columns(
// CHECK:         linalg.fill ins(%ninf : f32) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<32xf32>)
// CHECK-NEXT:    %[[S:.*]], %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%{{.*}} : tensor<32x16xf32>)
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<32x16xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<32x16xf32>) {
// CHECK-NEXT:        %[[SS:.*]] = tensor.extract_slice %[[S]][%[[I]], %[[J]]] [8, 4] [1, 1]
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [8, 4] [1, 1]
// CHECK-NEXT:        linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%[[SS]] : tensor<8x4xf32>) outs(%[[OUT]] : tensor<8x4xf32>)
// CHECK-NOT:         linalg_ext.softmax
// CHECK:           } {__byteir_parallel__}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {__byteir_parallel__}
// CHECK-NEXT:    func.return %[[R]] : tensor<32x16xf32>
func.func @softmax_then_columns(%x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %e = tensor.empty() : tensor<32x16xf32>
  %v0 = tensor.empty() : tensor<32xf32>
  %v1 = tensor.empty() : tensor<32xf32>
  %v2 = tensor.empty() : tensor<32xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%v0 : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%v1 : tensor<32xf32>) -> tensor<32xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<32x16xf32>)
      outs(%e, %max, %sum, %v2 : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>)
      : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  %e2 = tensor.empty() : tensor<32x16xf32>
  %r = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%s#0 : tensor<32x16xf32>) outs(%e2 : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "softmax_root"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match ops{["linalg_ext.softmax"]} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [8], tile_interchange = [0]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "softmax_then_rows"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_ext %0 {tile_sizes = [8], tile_interchange = [0]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "softmax_then_columns"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 4], tile_interchange = [0, 1]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
  cleanup
}
