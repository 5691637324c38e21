// Reduction-axis correctness of transform.structured.fuse_ext: when a loop
// tiles a reduction dimension of the root, the fill of its destination
// stays before the loops and feeds their iter_args (each k tile adds onto
// what the earlier ones left; upstream's transform.structured.fuse
// re-fills every tile); when the loops tile parallel dimensions only, the
// fill is fused, a tile of it per tile of the root. The input producers
// are fused either way. Interchanged loops throughout.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>

// Tiled 4 rows x 3 of the reduction (d1, outermost by the interchange).
// CHECK-LABEL: func.func @along_reduction(
// CHECK-SAME:      %[[X:.*]]: tensor<12x7x25xf32>)
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<12x25xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC0:.*]] = %[[FILL]]) -> (tensor<12x25xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<12x25xf32>) {
// CHECK-NEXT:        %[[KS:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[K]])
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[K]], 0] [4, %[[KS]], 25] [1, 1, 1]
// CHECK-NEXT:        %[[ES:.*]] = tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[SQ:.*]] = linalg.mul ins(%[[XS]], %[[XS]] : tensor<4x?x25xf32>, tensor<4x?x25xf32>) outs(%[[ES]] : tensor<4x?x25xf32>)
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [4, 25] [1, 1]
// CHECK-NEXT:        %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4x?x25xf32>) outs(%[[OUT]] : tensor<4x25xf32>) attrs = {__root__}
// CHECK-NOT:         linalg.fill
// CHECK:             tensor.insert_slice %[[SUM]] into %[[ACC]][%[[I]], 0] [4, 25] [1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         func.return %[[R]] : tensor<12x25xf32>
func.func @along_reduction(%x: tensor<12x7x25xf32>) -> tensor<12x25xf32> {
  %one = arith.constant 1.0 : f32
  %e3 = tensor.empty() : tensor<12x7x25xf32>
  %sq = linalg.mul ins(%x, %x : tensor<12x7x25xf32>, tensor<12x7x25xf32>) outs(%e3 : tensor<12x7x25xf32>) -> tensor<12x7x25xf32>
  %e = tensor.empty() : tensor<12x25xf32>
  %fill = linalg.fill ins(%one : f32) outs(%e : tensor<12x25xf32>) -> tensor<12x25xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%sq : tensor<12x7x25xf32>) outs(%fill : tensor<12x25xf32>) attrs = {__root__} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<12x25xf32>
  return %r : tensor<12x25xf32>
}

// The same reduction tiled 5 rows x 7 columns (both parallel; the
// reduction stays whole in each tile): the fill is fused, filling the
// tile of the iter_arg the root then writes.
// CHECK-LABEL: func.func @along_parallel(
// CHECK-SAME:      %[[X:.*]]: tensor<12x7x25xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<12x25xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<12x25xf32>) {
// CHECK-NEXT:        %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 5)> (%[[I]])
// CHECK-NEXT:        %[[W:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 25), 7)> (%[[J]])
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], 0, %[[J]]] [%[[H]], 7, %[[W]]] [1, 1, 1]
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[SQ:.*]] = linalg.mul ins(%[[XS]], %[[XS]] : tensor<?x7x?xf32>, tensor<?x7x?xf32>)
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-NEXT:        %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[OUT]] : tensor<?x?xf32>)
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[SQ]] : tensor<?x7x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>) attrs = {__root__}
// CHECK-NOT:     linalg.{{fill|mul}}
// CHECK:         func.return %[[R]] : tensor<12x25xf32>
func.func @along_parallel(%x: tensor<12x7x25xf32>) -> tensor<12x25xf32> {
  %one = arith.constant 1.0 : f32
  %e3 = tensor.empty() : tensor<12x7x25xf32>
  %sq = linalg.mul ins(%x, %x : tensor<12x7x25xf32>, tensor<12x7x25xf32>) outs(%e3 : tensor<12x7x25xf32>) -> tensor<12x7x25xf32>
  %e = tensor.empty() : tensor<12x25xf32>
  %fill = linalg.fill ins(%one : f32) outs(%e : tensor<12x25xf32>) -> tensor<12x25xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%sq : tensor<12x7x25xf32>) outs(%fill : tensor<12x25xf32>) attrs = {__root__} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<12x25xf32>
  return %r : tensor<12x25xf32>
}

// A matmul tiled along k (outermost), m and n: its zero fill before the
// loops, the exp of its left operand fused (a 4x8 tile per iteration).
// CHECK-LABEL: func.func @matmul_along_k(
// CHECK-SAME:      %[[A:.*]]: tensor<16x24xf32>, %[[B:.*]]: tensor<24x8xf32>)
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FILL]]) -> (tensor<16x8xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<16x8xf32>) {
// CHECK-NEXT:        scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16x8xf32>) {
// CHECK-NEXT:          %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[K]]] [4, 8] [1, 1]
// CHECK-NEXT:          tensor.{{extract_slice|empty}}
// CHECK-NEXT:          %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[AS]] : tensor<4x8xf32>)
// CHECK-NEXT:          %[[BS:.*]] = tensor.extract_slice %[[B]][%[[K]], %[[J]]] [8, 4] [1, 1]
// CHECK-NEXT:          %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:          linalg.matmul {__root__} ins(%[[EXP]], %[[BS]] : tensor<4x8xf32>, tensor<8x4xf32>) outs(%[[OUT]] : tensor<4x4xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<16x8xf32>
func.func @matmul_along_k(%a: tensor<16x24xf32>, %b: tensor<24x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<16x24xf32>
  %ta = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<16x24xf32>) outs(%ea : tensor<16x24xf32>) -> tensor<16x24xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul {__root__} ins(%ta, %b : tensor<16x24xf32>, tensor<24x8xf32>) outs(%fill : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %mm : tensor<16x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "along_reduction"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 3, 0], tile_interchange = [1, 0, 2]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "along_parallel"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [5, 0, 7], tile_interchange = [0, 2, 1]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "matmul_along_k"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:3 = transform.structured.fuse_ext %0 {tile_sizes = [4, 4, 8], tile_interchange = [2, 0, 1]}
  cleanup
}
