// Every verifier rule of custom, each with its message.
// RUN: xdsl-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics --parsing-diagnostics %s | filecheck %s

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

// -----

func.func @wrong_terminator(%o: tensor<4xf32>) {
  %r = linalg_ext.custom outs(%o : tensor<4xf32>) {
  ^bb0(%b: tensor<4xf32>):
    linalg.yield %b : tensor<4xf32>
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected the region to end with linalg_ext.yield

// -----

func.func @no_block(%o: tensor<4xf32>) {
  %r = linalg_ext.custom outs(%o : tensor<4xf32>) {
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected a region with one block, got 0

// On tensors the results come from the yield, so it cannot be left implicit.
// -----

func.func @tensor_body_without_yield(%o: tensor<4xf32>) {
  %r = linalg_ext.custom outs(%o : tensor<4xf32>) {
  ^bb0(%b: tensor<4xf32>):
    "vendor.work"(%b) : (tensor<4xf32>) -> ()
  } -> tensor<4xf32>
  return
}
// CHECK: 'linalg_ext.custom' op expected the region to yield 1 value (one per output, of its type), got 0

// -----

func.func @memref_yields_some(%a: memref<4xf32>, %o: memref<4xf32>) {
  linalg_ext.custom outs(%a, %o : memref<4xf32>, memref<4xf32>) {
  ^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
    linalg_ext.yield %x : memref<4xf32>
  }
  return
}
// CHECK: 'linalg_ext.custom' op expected the region to yield 2 values (one per output, of its type, or none on memrefs), got 1

// -----

func.func @no_outs_keyword(%a: tensor<4xf32>) {
  %r = linalg_ext.custom ins(%a : tensor<4xf32>) {
  ^bb0(%x: tensor<4xf32>):
    linalg_ext.yield
  }
  return
}
// CHECK: Expected 'outs' in 'linalg_ext.custom'
