// ByteIR's script form with the MLIR 22 tiling op and loop peeling on
// !pdl.operation handles: the matmul tiled 4 along rows and 4 along k
// (10 rows: 2 whole steps and a partial one), the row loop cast to
// !transform.op<"scf.for"> and peeled: the whole steps up to 8, then one
// loop for the last 2 rows, whose tile size is then the constant 2.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<10x6xf32>, %b: tensor<6x8xf32>, %c: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<10x6xf32>, tensor<6x8xf32>) outs(%c : tensor<10x8xf32>) -> tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}

// CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:  %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:  %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:  %[[C8:.*]] = arith.constant 8 : index
// CHECK:      %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C4]] iter_args(%{{.*}} = %c) -> (tensor<10x8xf32>) {
// CHECK-NEXT:   scf.for %[[K:.*]] = %[[C0]] to %{{.*}} step %[[C4]]
// CHECK:          %[[ROWS:.*]] = arith.constant 4 : index
// CHECK:          tensor.extract_slice %a[%[[I]], %[[K]]] [%[[ROWS]], %{{.*}}] [1, 1]
// CHECK:          linalg.matmul
// CHECK:      scf.for %[[R:.*]] = %[[C8]] to %[[C10]] step %[[C4]] iter_args(%{{.*}} = %[[MAIN]]) -> (tensor<10x8xf32>) {
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     %[[LAST:.*]] = arith.constant 2 : index
// CHECK:          tensor.extract_slice %a[%[[R]], %{{.*}}] [%[[LAST]], %{{.*}}] [1, 1]
// CHECK:          linalg.matmul
// CHECK-NOT:  transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [4, 0, 4] : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
  %2 = transform.cast %loops#0 : !pdl.operation to !transform.op<"scf.for">
  %main, %rest = transform.loop.peel %2 : (!transform.op<"scf.for">) -> (!pdl.operation, !pdl.operation)
}
