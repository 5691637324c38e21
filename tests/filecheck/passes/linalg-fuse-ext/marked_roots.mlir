// linalg-fuse-ext on the ops marked __root__: each is tiled (here 4x4,
// columns outermost) and its cone fused into its own loops, as
// transform.structured.fuse_ext does; an op marked __stop__ bounds every
// cone. The mul after the first root is not in any cone: it reads the
// loops' result, untiled. The clean-up of tiled IR runs after (the
// slices of tensor.empty become empty tiles). With keep-intermediates,
// each nest also yields its fused value (the exp, the sub), though nothing
// reads it.
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,4 tile-interchange=1,0}' | filecheck %s
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,4 tile-interchange=1,0 keep-intermediates=true}' | filecheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @two_roots(
// CHECK-SAME:      %[[A:.*]]: tensor<16x8xf32>, %[[B:.*]]: tensor<16x8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R0:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<16x8xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16x8xf32>) {
// CHECK-NEXT:        %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        %[[T:.*]] = tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[EXP:.*]] = linalg.exp ins(%[[AS]] : tensor<4x4xf32>) outs(%[[T]] : tensor<4x4xf32>)
// CHECK-NEXT:        %[[BS:.*]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        linalg.add {__root__} ins(%[[EXP]], %[[BS]] : tensor<4x4xf32>, tensor<4x4xf32>) outs(%[[OUT]] : tensor<4x4xf32>)
// CHECK:         %[[MUL:.*]] = linalg.mul ins(%[[R0]], %[[R0]] : tensor<16x8xf32>, tensor<16x8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R1:.*]] = scf.for
// CHECK-NEXT:      scf.for
// CHECK:             linalg.sub ins(%{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK:             linalg.negf {__root__} ins(%{{.*}} : tensor<4x4xf32>)
// CHECK:         func.return %[[MUL]], %[[R1]] : tensor<16x8xf32>, tensor<16x8xf32>
// KEEP-LABEL: func.func @two_roots(
// KEEP:         %[[R0:.*]], %{{.*}} = scf.for %{{.*}} iter_args(%{{.*}} = %e, %{{.*}} = %e) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
// KEEP-NEXT:      scf.for %[[I:.*]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
// KEEP:             %[[EXP:.*]] = linalg.exp
// KEEP:             %[[ADD:.*]] = linalg.add {__root__} ins(%[[EXP]], %{{.*}} :
// KEEP-NEXT:        %[[W0:.*]] = tensor.insert_slice %[[ADD]] into %[[ACC]]
// KEEP-NEXT:        %[[W1:.*]] = tensor.insert_slice %[[EXP]] into %[[K]]
// KEEP-NEXT:        scf.yield %[[W0]], %[[W1]] :
// KEEP:         linalg.mul ins(%[[R0]], %[[R0]] :
// KEEP:         %[[R1:.*]], %{{.*}} = scf.for
// KEEP:             %[[SUB:.*]] = linalg.sub
// KEEP:             linalg.negf {__root__} ins(%[[SUB]] :
// KEEP:             tensor.insert_slice %[[SUB]] into
// KEEP:         func.return %{{.*}}, %[[R1]] :
func.func @two_roots(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.exp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.add {__root__} ins(%0, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = linalg.mul ins(%1, %1 : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %3 = linalg.sub ins(%a, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %4 = linalg.negf {__root__} ins(%3 : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %2, %4 : tensor<16x8xf32>, tensor<16x8xf32>
}

// The stop (elemwise_unary, the legacy op) stays before the loops; the
// binary between it and the root is fused.
// CHECK-LABEL: func.func @stopped(
// CHECK:         %[[S:.*]] = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<log>}
// CHECK-NOT:     linalg.
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             tensor.extract_slice %[[S]]
// CHECK:             linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
// CHECK:             linalg.elemwise_binary {__root__}
// CHECK-NOT:     __stop__
func.func @stopped(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<log>} ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = linalg.elemwise_binary {__root__} ins(%1, %a : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}
