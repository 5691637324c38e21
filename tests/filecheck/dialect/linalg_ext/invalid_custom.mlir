// Every verifier rule of custom, each with its message.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @no_outputs(%x: tensor<4xf32>) {
  "linalg_ext.custom"(%x) <{operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%a: tensor<4xf32>):
    linalg_ext.yield
  }) : (tensor<4xf32>) -> ()
  return
}
// CHECK: 'linalg_ext.custom' op expected at least one output operand

// -----

func.func @region_takes_outputs_only(%x: tensor<4xf32>, %o: tensor<4xf32>) {
  %r = linalg_ext.custom ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%b: tensor<4xf32>):
    linalg_ext.yield %b : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected the region to take 2 arguments (one per input and output, of its type), got 1

// -----

func.func @region_takes_elements(%x: tensor<4xf32>, %o: tensor<4xf32>) {
  %r = linalg_ext.custom ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: tensor<4xf32>):
    linalg_ext.yield %b : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected region argument #0 to be of type tensor<4xf32>, got f32

// -----

func.func @yields_too_few(%x: tensor<4xf32>, %o: tensor<4xf32>) {
  %r:2 = linalg_ext.custom outs(%x, %o : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    linalg_ext.yield %b : tensor<4xf32>
  } -> tensor<4xf32>, tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected the region to yield 2 values (one per output, of its type), got 1

// -----

func.func @yield_type(%x: memref<4xf32>, %o: memref<4xf32>, %other: memref<?xf32>) {
  linalg_ext.custom ins(%x : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%a: memref<4xf32>, %b: memref<4xf32>):
    linalg_ext.yield %other : memref<?xf32>
  }
  return
}
// CHECK: 'linalg_ext.custom' op expected yielded value #0 to be of type memref<4xf32>, got memref<?xf32>

// -----

func.func @scalar_input(%s: f32, %o: tensor<4xf32>) {
  %r = linalg_ext.custom ins(%s : f32) outs(%o : tensor<4xf32>) {
  ^bb0(%a: f32, %b: tensor<4xf32>):
    linalg_ext.yield %b : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected input #0 to be a ranked tensor or memref, got f32
