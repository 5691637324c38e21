// Every verifier rule of the compat ops, each with its message.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s

func.func @map_shape_mismatch(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @below {{'linalg.map' op expected shape of input (5) to match shape of output (4)}}
  %a = linalg.map { arith.addf } ins(%x, %y : tensor<4xf32>, tensor<5xf32>) outs(%x : tensor<4xf32>)
  return
}

// -----

func.func @map_mapper_arity(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @below {{'linalg.map' op expects number of operands to match the arity of mapper, but got: 2 and 1}}
  %a = linalg.map ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>) (%a: f32) { linalg.yield %a : f32 }
  return
}

// -----

func.func @map_mapper_argument_type(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error @below {{'linalg.map' op expected element type of operand #0 (f32) to match mapper argument type (f16)}}
  %a = linalg.map ins(%x : tensor<4xf32>) outs(%y : tensor<4xf32>) (%a: f16, %b: f32) { linalg.yield %b : f32 }
  return
}

// -----

func.func @map_yield_type(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @below {{'linalg.map' op expected the mapper to yield the init's element type (i32), got f32}}
  %a = linalg.map ins(%x : tensor<4xf32>) outs(%y : tensor<4xi32>) (%a: f32, %b: i32) { linalg.yield %a : f32 }
  return
}

// -----

func.func @map_mixed_tensor_memref(%x: tensor<4xf32>, %y: memref<4xf32>) {
  // expected-error @below {{'linalg.map' op expected to have pure tensor or buffer semantics}}
  linalg.map ins(%x : tensor<4xf32>) outs(%y : memref<4xf32>) (%a: f32, %b: f32) { linalg.yield %a : f32 }
  return
}

// -----

func.func @div_shape_mismatch(%x: tensor<4xf32>, %y: tensor<5xf32>) {
  // expected-error @below {{'linalg.div' op inferred input/output operand #1 has shape's dimension #0 to be 4, but found 5}}
  %a = linalg.div ins(%x, %y : tensor<4xf32>, tensor<5xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @powf_element_types(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @below {{'linalg.powf' op expects all operands to have one element type, got f32, f32, f16}}
  %a = linalg.powf ins(%x, %x : tensor<4xf32>, tensor<4xf32>) outs(%y : tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

func.func @negf_of_scalars(%x: f32, %y: f32) {
  // expected-error @below {{operand 'outputs' at position 1 does not verify}}
  linalg.negf ins(%x : f32) outs(%y : f32)
  return
}

// -----

func.func @batch_matmul_k_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<2x5x5xf32>, %c: tensor<2x3x5xf32>) {
  // expected-error @below {{'linalg.batch_matmul' op inferred input/output operand #1 has shape's dimension #1 to be 4, but found 5}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x5x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @batch_matmul_bad_lhs_map(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) {
  // expected-error @below {{'linalg.batch_matmul' op expects the lhs's indexing map to use loops [1, 3] and optionally the batch loop 0, got (d0, d1, d2, d3) -> (d0, d1, d2)}}
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @affine_max_operand_count(%i: index) {
  // expected-error @below {{'affine.max' op expects 2 operands (2 dimension(s) and 0 symbol(s) of its map), got 1}}
  %0 = affine.max affine_map<(d0, d1) -> (d0, d1)>(%i)
  return
}

// -----

func.func @forall_mapping_length() {
  // expected-error @below {{'scf.forall' op expected the mapping to have one entry per loop (2), got 1}}
  scf.forall (%i, %j) in (4, 2) {
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

func.func @insert_into_non_output(%t: tensor<4xf32>, %s: tensor<1xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{'tensor.parallel_insert_slice' op may only insert into a shared output of the scf.forall}}
      tensor.parallel_insert_slice %s into %t[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return
}

// -----

func.func @insert_source_shape(%t: tensor<4xf32>, %s: tensor<2xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{'tensor.parallel_insert_slice' op expected source type tensor<2xf32> to have the slice's shape [1], or that shape without some unit extents}}
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<2xf32> into tensor<4xf32>
    }
  }
  return
}

// -----

func.func @insert_offsets_rank(%t: tensor<4xf32>, %s: tensor<1xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{'tensor.parallel_insert_slice' op expected 1 offset values for the destination's rank, got 2}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 1] [1, 1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return
}

// -----

func.func @in_parallel_other_op(%t: tensor<4xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    // expected-error @below {{'scf.forall.in_parallel' op expected only tensor.parallel_insert_slice ops, got arith.constant}}
    scf.forall.in_parallel {
      %c = arith.constant 0 : index
    }
  }
  return
}

// -----

func.func @insert_outside_forall(%t: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @below {{'tensor.parallel_insert_slice' expects parent op 'scf.forall.in_parallel'}}
  tensor.parallel_insert_slice %s into %t[0] [1] [1] : tensor<1xf32> into tensor<4xf32>
  return
}

// -----

func.func @generate_missing_extent(%d: index) {
  // expected-error @below {{'tensor.generate' op expected 1 dynamic extent(s) for tensor<?xf32>, got 0}}
  %t = tensor.generate {
  ^bb0(%i: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?xf32>
  return
}

// -----

func.func @generate_body_arguments(%d: index) {
  // expected-error @below {{'tensor.generate' op expected the body to take 1 index argument(s), one per dimension of the result}}
  %t = tensor.generate %d {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 1.0 : f32
    tensor.yield %c : f32
  } : tensor<?xf32>
  return
}

// -----

func.func @generate_yield_type(%d: index) {
  // expected-error @below {{'tensor.generate' op body must be terminated with a `yield` operation of the tensor element type (f32, got i32)}}
  %t = tensor.generate %d {
  ^bb0(%i: index):
    %c = arith.constant 1 : i32
    tensor.yield %c : i32
  } : tensor<?xf32>
  return
}

// -----

func.func @forall_other_terminator(%t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' terminates with operation test.termop instead of scf.forall.in_parallel}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    "test.termop"() : () -> ()
  }
  return
}

// -----

func.func @negf_tensor_without_result(%x: tensor<4xf32>) {
  // expected-error @below {{'linalg.negf' op expected the number of tensor results (0) to be equal to the number of output tensors (1)}}
  linalg.negf ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>)
  return
}

// -----

func.func @batch_matmul_result_type(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) {
  // expected-error @below {{'linalg.batch_matmul' op expected type of operand #2 ('tensor<2x3x5xf32>') to match type of corresponding result ('tensor<2x3x6xf32>')}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @forall_result_type(%t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' op expected shared output #0, its body argument and its result to have one type, got tensor<4xf32>, tensor<4xf32> and tensor<5xf32>}}
  %r = "scf.forall"(%t) <{staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 1>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (tensor<4xf32>) -> tensor<5xf32>
  return
}
