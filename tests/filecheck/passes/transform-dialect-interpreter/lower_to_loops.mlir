// transform.structured.lower_to_loops (ByteIR's op, script form): a Linalg op
// on memrefs becomes the scf.for nest of its iteration domain (domain
// order, step 1) around its scalar body; the results are the loops the ids
// name (0 the outermost, -1 the innermost; tests/unit/test_tile_ext.py
// checks which loops the handles hold); `cleanup` after it, as ByteIR's
// test runs it.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @row_max(
// CHECK-SAME:      %[[X:.*]]: memref<6x8xf32>, %[[Y:.*]]: memref<6xf32>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[SIX:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         scf.for %[[I:.*]] = %[[ZERO]] to %[[SIX]] step %[[ONE]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[ZERO]] to %[[EIGHT]] step %[[ONE]] {
// CHECK-NEXT:        %[[IN:.*]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<6x8xf32>
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %[[Y]][%[[I]]] : memref<6xf32>
// CHECK-NEXT:        %[[MAX:.*]] = arith.maxnumf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:        memref.store %[[MAX]], %[[Y]][%[[I]]] : memref<6xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @row_max(%x: memref<6x8xf32>, %y: memref<6xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<6x8xf32>) outs(%y : memref<6xf32>) attrs = {__merge__} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxnumf %in, %out : f32
    linalg.yield %m : f32
  }
  return
}

// A named op, on a dynamic shape: its extents are read with memref.dim.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: memref<?x4xf32>, %[[B:.*]]: memref<4x3xf32>, %[[C:.*]]: memref<?x3xf32>)
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x4xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:        scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT:          memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT:          memref.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:          arith.mulf
// CHECK-NEXT:          arith.addf
// CHECK-NEXT:          memref.store %{{.*}}, %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:        }
func.func @matmul(%a: memref<?x4xf32>, %b: memref<4x3xf32>, %c: memref<?x3xf32>) {
  linalg.matmul ins(%a, %b : memref<?x4xf32>, memref<4x3xf32>) outs(%c : memref<?x3xf32>)
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__merge__} in %root : (!pdl.operation) -> !pdl.operation
  %outer, %inner = transform.structured.lower_to_loops %0 [0, -1]
  cleanup
  %1 = transform.structured.match ops{["linalg.matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  %loops:2 = transform.structured.lower_to_loops %1 [-1, 1]
}
