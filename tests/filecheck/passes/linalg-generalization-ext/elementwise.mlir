// The named elementwise ops (tensors and memrefs), linalg.elementwise and
// MLIR 19's linalg.elemwise_binary: each becomes a generic with upstream's
// scalar body. A tag another pass left on the named op stays on the generic.
// RUN: xdsl-opt %s -p linalg-generalization-ext | filecheck %s

// CHECK-LABEL: func.func @named
// CHECK-NOT:     linalg.{{add|sub|exp|select|max}} 
// CHECK:         %[[ADD:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) attrs = {my.tag = 7 : i64} {
// CHECK:           arith.addf
// CHECK:         %[[EXP:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:        ins(%c, %[[ADD]], %[[EXP]] : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK:           arith.select
// CHECK:         linalg.generic
// CHECK:           arith.subi
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
func.func @named(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: tensor<4xi1>, %o: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %add = linalg.add {my.tag = 7 : i64} ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %exp = linalg.exp ins(%y : tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %sel = linalg.select ins(%c, %add, %exp : tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  %sub = linalg.sub ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  %max = linalg.max ins(%x, %sel : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
  return %sel, %sub, %max : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// On memrefs the generic has no result and writes in place, here into an
// input; i1 addition is an or, as upstream builds it.
// CHECK-LABEL: func.func @on_memrefs
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a, %b : memref<2x3xf32>, memref<2x3xf32>) outs(%a : memref<2x3xf32>) {
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}} outs(%p : memref<3xi1>) {
// CHECK:           arith.ori
// CHECK-NOT:     linalg.{{mul|add}} 
func.func @on_memrefs(%a: memref<2x3xf32>, %b: memref<2x3xf32>, %p: memref<3xi1>, %q: memref<3xi1>) {
  linalg.mul ins(%a, %b : memref<2x3xf32>, memref<2x3xf32>) outs(%a : memref<2x3xf32>)
  linalg.add ins(%p, %q : memref<3xi1>, memref<3xi1>) outs(%p : memref<3xi1>)
  return
}

// linalg.elementwise with a broadcasting map, and the MLIR 19 form with a
// scalar operand and a conversion.
// CHECK-LABEL: func.func @elementwise_forms
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %r : tensor<2x3xf32>, tensor<3xf32>) outs(%a : tensor<2x3xf32>) {
// CHECK:           arith.addf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %s : memref<2x3xi8>, i8) outs(%out : memref<2x3xf32>) {
// CHECK:           arith.uitofp
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.elem
func.func @elementwise_forms(%a: tensor<2x3xf32>, %r: tensor<3xf32>, %m: memref<2x3xi8>, %s: i8, %out: memref<2x3xf32>) -> tensor<2x3xf32> {
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %r : tensor<2x3xf32>, tensor<3xf32>) outs(%a : tensor<2x3xf32>) -> tensor<2x3xf32>
  linalg.elemwise_binary {fun = #linalg.binary_fn<mul>, cast = #linalg.type_fn<cast_unsigned>} ins(%m, %s : memref<2x3xi8>, i8) outs(%out : memref<2x3xf32>)
  return %0 : tensor<2x3xf32>
}
