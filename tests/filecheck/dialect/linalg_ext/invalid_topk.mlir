// Every verifier rule of topk, each with its message.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s | filecheck %s

func.func @three_inputs(%v: tensor<8x20xf32>, %i: tensor<8x20xi32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i, %i : tensor<8x20xf32>, tensor<8x20xi32>, tensor<8x20xi32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected 1 or 2 input operands (values, optional indices), got 3

// -----

func.func @values_only_output(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>) {
  %r = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>
  return
}
// CHECK: 'linalg_ext.topk' op expected 2 output operands (values, indices), got 1

// -----

func.func @rank0(%v: tensor<f32>, %oi: tensor<i32>) {
  %r:2 = linalg_ext.topk dimension(0) ins(%v : tensor<f32>) outs(%v, %oi : tensor<f32>, tensor<i32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<f32>, tensor<i32>
  return
}
// CHECK: 'linalg_ext.topk' op expected input values to have rank >= 1, got tensor<f32>

// -----

func.func @dimension_out_of_range(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(2) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected dimension to be in [0, 2), got 2

// -----

func.func @float_input_indices(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xf32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %v : tensor<8x20xf32>, tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xf32>
  return
}
// CHECK: 'linalg_ext.topk' op expected input indices element type to be an integer or index type, got f32

// -----

func.func @input_indices_shape(%v: tensor<8x20xf32>, %i: tensor<8x21xi32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i : tensor<8x20xf32>, tensor<8x21xi32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected input indices shape to be compatible with [8, 20], got tensor<8x21xi32>

// -----

func.func @indices_element_types_differ(%v: tensor<8x20xf32>, %i: tensor<8x20xi32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi64>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i : tensor<8x20xf32>, tensor<8x20xi32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi64>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi64>
  return
}
// CHECK: 'linalg_ext.topk' op expected output indices element type to match input indices element type i32, got i64

// -----

func.func @output_values_element_type(%v: tensor<8x20xf32>, %ov: tensor<8x3xf16>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf16>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf16>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output values element type to match input values element type f32, got f16

// -----

func.func @float_output_indices(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %ov : tensor<8x3xf32>, tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xf32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output indices element type to be an integer or index type, got f32

// -----

func.func @output_values_rank(%v: tensor<8x20xf32>, %ov: tensor<24xf32>, %oi: tensor<24xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<24xf32>, tensor<24xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<24xf32>, tensor<24xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output values to have rank 2, got tensor<24xf32>

// -----

func.func @output_values_other_dim(%v: tensor<8x20xf32>, %ov: tensor<9x3xf32>, %oi: tensor<9x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<9x3xf32>, tensor<9x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<9x3xf32>, tensor<9x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output values shape to be compatible with [8, 3], got tensor<9x3xf32>

// -----

func.func @k_exceeds_input(%v: tensor<8x20xf32>, %ov: tensor<8x21xf32>, %oi: tensor<8x21xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x21xf32>, tensor<8x21xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x21xf32>, tensor<8x21xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected K (21, the outputs' extent along dimension 1) not to exceed the input extent along that dimension (20)

// -----

func.func @output_indices_shape(%v: memref<8x20xf32>, %ov: memref<8x3xf32>, %oi: memref<8x4xi32>) {
  linalg_ext.topk dimension(1) ins(%v : memref<8x20xf32>) outs(%ov, %oi : memref<8x3xf32>, memref<8x4xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  }
  return
}
// CHECK: 'linalg_ext.topk' op expected output indices shape to be compatible with [8, 3], got memref<8x4xi32>

// -----

func.func @comparator_yields_value(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    linalg_ext.yield %a : f32
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected yielded value #0 to be of type i1, got f32

// -----

func.func @comparator_argument_type(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi sgt, %a, %b : i32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected region argument #0 to be of type f32, got i32

// -----

func.func @input_indices_rank(%v: tensor<8x20xf32>, %i: tensor<160xi32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i : tensor<8x20xf32>, tensor<160xi32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected input indices to have rank 2, got tensor<160xi32>

// -----

func.func @output_indices_rank(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<24xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<24xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x3xf32>, tensor<24xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output indices to have rank 2, got tensor<24xi32>

// Output values of unknown shape do not let output indices disagree with the input.
// -----

func.func @output_indices_batch_under_dynamic_values(%v: tensor<8x20xf32>, %ov: tensor<?x?xf32>, %oi: tensor<9x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<?x?xf32>, tensor<9x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<?x?xf32>, tensor<9x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected output indices shape to be compatible with [8, ?], got tensor<9x3xi32>

// -----

func.func @k_from_output_indices(%v: tensor<8x20xf32>, %ov: tensor<8x?xf32>, %oi: tensor<8x25xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x?xf32>, tensor<8x25xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x?xf32>, tensor<8x25xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected K (25, the outputs' extent along dimension 1) not to exceed the input extent along that dimension (20)

// -----

func.func @n_from_input_indices(%v: tensor<8x?xf32>, %i: tensor<8x5xi32>, %ov: tensor<8x7xf32>, %oi: tensor<8x7xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v, %i : tensor<8x?xf32>, tensor<8x5xi32>) outs(%ov, %oi : tensor<8x7xf32>, tensor<8x7xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<8x7xf32>, tensor<8x7xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected K (7, the outputs' extent along dimension 1) not to exceed the input extent along that dimension (5)

// -----

func.func @comparator_arity(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32):
    %t = arith.constant true
    linalg_ext.yield %t : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected the region to take 2 arguments (lhs value, rhs value), got 1

// -----

func.func @comparator_terminator(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg.yield %c : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected the region to end with linalg_ext.yield

// -----

func.func @comparator_yields_two(%v: tensor<8x20xf32>, %ov: tensor<8x3xf32>, %oi: tensor<8x3xi32>) {
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<8x20xf32>) outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c, %c : i1, i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return
}
// CHECK: 'linalg_ext.topk' op expected the region to yield 1 value (lhs comes first), got 2
