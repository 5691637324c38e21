// transform.structured.insert_slice_to_copy_ext (ByteIR's op, script form):
// the source of a tensor.insert_slice is copied by a linalg.copy into the
// slice of the destination it goes to, and the copy is inserted instead;
// the handle returned holds the copies (annotated here to show it).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @row(
// CHECK-SAME:      %[[S:.*]]: tensor<2x4xf32>, %[[D:.*]]: tensor<3x4xf32>)
// CHECK-NEXT:    %[[SLICE:.*]] = tensor.extract_slice %[[D]][1, 0] [2, 4] [1, 1] : tensor<3x4xf32> to tensor<2x4xf32>
// CHECK-NEXT:    %[[COPY:.*]] = linalg.copy {__copied__} ins(%[[S]] : tensor<2x4xf32>) outs(%[[SLICE]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[COPY]] into %[[D]][1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @row(%s: tensor<2x4xf32>, %d: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = tensor.insert_slice %s into %d[1, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// A rank-reducing insertion with a dynamic offset and a stride: the slice
// is rank-reduced as the source is (upstream's insert_slice_to_copy builds
// a tensor<1x3xf32> slice and a linalg.copy that does not verify).
// CHECK-LABEL: func.func @rank_reduced(
// CHECK-SAME:      %[[S:.*]]: tensor<3xf32>, %[[D:.*]]: tensor<4x6xf32>, %[[I:.*]]: index)
// CHECK-NEXT:    %[[SLICE:.*]] = tensor.extract_slice %[[D]][%[[I]], 1] [1, 3] [1, 2] : tensor<4x6xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[COPY:.*]] = linalg.copy {__copied__} ins(%[[S]] : tensor<3xf32>) outs(%[[SLICE]] : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[COPY]] into %[[D]][%[[I]], 1] [1, 3] [1, 2] : tensor<3xf32> into tensor<4x6xf32>
func.func @rank_reduced(%s: tensor<3xf32>, %d: tensor<4x6xf32>, %i: index) -> tensor<4x6xf32> {
  %r = tensor.insert_slice %s into %d[%i, 1] [1, 3] [1, 2] : tensor<3xf32> into tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// The source is a linalg.copy already: it is what the handle holds, nothing
// else changes.
// CHECK-LABEL: func.func @already_copied(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:    %[[C:.*]] = linalg.copy {__copied__} ins(%{{.*}} : tensor<2xf32>) outs(%[[E]] : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[C]] into %{{.*}}[2] [2] [1] : tensor<2xf32> into tensor<5xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @already_copied(%s: tensor<2xf32>, %d: tensor<5xf32>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<2xf32>
  %c = linalg.copy ins(%s : tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %r = tensor.insert_slice %c into %d[2] [2] [1] : tensor<2xf32> into tensor<5xf32>
  return %r : tensor<5xf32>
}

// A tensor.parallel_insert_slice: the slice and the copy are built before
// the in_parallel terminator, where only insertions may be.
// CHECK-LABEL: func.func @forall(
// CHECK:         scf.forall (%[[I:.*]]) in (3) shared_outs(%[[O:.*]] = %{{.*}}) -> (tensor<6xf32>) {
// CHECK-NEXT:      %[[OFF:.*]] = affine.apply
// CHECK-NEXT:      %[[IN:.*]] = tensor.extract_slice
// CHECK-NEXT:      %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT:      %[[DBL:.*]] = linalg.add ins(%[[IN]], %[[IN]] : tensor<2xf32>, tensor<2xf32>) outs(%[[E]] : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:      %[[SLICE:.*]] = tensor.extract_slice %[[O]][%[[OFF]]] [2] [1] : tensor<6xf32> to tensor<2xf32>
// CHECK-NEXT:      %[[COPY:.*]] = linalg.copy {__copied__} ins(%[[DBL]] : tensor<2xf32>) outs(%[[SLICE]] : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[COPY]] into %[[O]][%[[OFF]]] [2] [1] : tensor<2xf32> into tensor<6xf32>
func.func @forall(%x: tensor<6xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %r = scf.forall (%i) in (3) shared_outs(%o = %init) -> (tensor<6xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %in = tensor.extract_slice %x[%off] [2] [1] : tensor<6xf32> to tensor<2xf32>
    %e = tensor.empty() : tensor<2xf32>
    %dbl = linalg.add ins(%in, %in : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %dbl into %o[%off] [2] [1] : tensor<2xf32> into tensor<6xf32>
    }
  }
  return %r : tensor<6xf32>
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["tensor.insert_slice", "tensor.parallel_insert_slice"]} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.insert_slice_to_copy_ext %0 : (!pdl.operation) -> !pdl.operation
  transform.annotate_ext %1 {__copied__}
}
