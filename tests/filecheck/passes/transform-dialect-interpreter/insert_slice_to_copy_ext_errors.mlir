// What insert_slice_to_copy_ext refuses: a target that is not an insertion
// (ByteIR's message), located at the transform op, naming the payload op;
// every target is checked before any changes.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

func.func @extract(%d: tensor<4xf32>, %s: tensor<2xf32>) -> (tensor<2xf32>, tensor<4xf32>) {
  %e = tensor.extract_slice %d[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %r = tensor.insert_slice %s into %d[2] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %e, %r : tensor<2xf32>, tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["tensor.insert_slice", "tensor.extract_slice"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.insert_slice_to_copy_ext' op only InsertSliceOp and ParallelInsertSliceOp ops are supported (target: tensor.extract_slice at}}
  %1 = transform.structured.insert_slice_to_copy_ext %0 : (!pdl.operation) -> !pdl.operation
}

// -----

// A parameter where an op handle is expected.
func.func @f(%d: tensor<4xf32>) -> tensor<4xf32> {
  return %d : tensor<4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %p = transform.param.constant 2 : i64 -> !transform.param<i64>
  // expected-error @below {{'transform.structured.insert_slice_to_copy_ext' op expects the target to be an op handle}}
  %1 = transform.structured.insert_slice_to_copy_ext %p : (!transform.param<i64>) -> !pdl.operation
}
