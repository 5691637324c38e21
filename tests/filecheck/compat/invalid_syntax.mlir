// Malformed compat ops are parse errors that name the op and what is wrong.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s

func.func @abs_of_integers(%x: tensor<4xi32>) {
  // expected-error @below {{'linalg.abs' expects floating-point element types, got i32}}
  %a = linalg.abs ins(%x : tensor<4xi32>) outs(%x : tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @div_with_one_input(%x: tensor<4xf32>) {
  // expected-error @below {{'linalg.div' expects 2 input(s) and 1 output, got 1 and 1}}
  %a = linalg.div ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @div_of_index(%x: tensor<4xindex>) {
  // expected-error @below {{'linalg.div' expects numeric element types, got index}}
  %a = linalg.div ins(%x, %x : tensor<4xindex>, tensor<4xindex>) outs(%x : tensor<4xindex>) -> tensor<4xindex>
  return
}

// -----

func.func @map_unknown_payload(%x: tensor<4xf32>) {
  // expected-error @below {{unknown operation 'foo.bar' in the short form of linalg.map}}
  %a = linalg.map { foo.bar } ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>)
  return
}

// -----

func.func @map_two_inits(%x: tensor<4xf32>) {
  // expected-error @below {{'linalg.map' expects outs with exactly one init}}
  %a = linalg.map { arith.addf } ins(%x : tensor<4xf32>) outs(%x, %x : tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @map_of_scalars(%x: f32) {
  // expected-error @below {{'linalg.map' expects tensor or memref operands, got f32}}
  %a = linalg.map { arith.addf } ins(%x : f32) outs(%x : f32)
  return
}

// -----

func.func @batch_matmul_one_input(%x: tensor<4xf32>) {
  // expected-error @below {{'linalg.batch_matmul' expects ins(lhs, rhs) and outs(init), got 1 input(s) and 1 output(s)}}
  %a = linalg.batch_matmul ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @batch_matmul_maps_not_maps(%x: tensor<4xf32>) {
  // expected-error @below {{'linalg.batch_matmul' expects indexing_maps to be a list of affine maps}}
  %a = linalg.batch_matmul indexing_maps = [1, 2] ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @generic_maps_not_maps(%x: tensor<8xf32>) {
  // expected-error @below {{'linalg.generic' expects indexing_maps to be a list of affine maps}}
  %r = linalg.generic {indexing_maps = 3, iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return
}

// -----

func.func @generic_unknown_iterator(%x: tensor<8xf32>) {
  // expected-error @below {{'linalg.generic' unknown iterator type "paralel"}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["paralel"]} ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return
}

// -----

func.func @generic_without_maps(%x: tensor<8xf32>) {
  // expected-error @below {{'linalg.generic' expects indexing_maps}}
  %r = linalg.generic {iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return
}

// -----

func.func @generic_doc_not_string(%x: tensor<8xf32>) {
  // expected-error @below {{'linalg.generic' expects doc to be a string}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], doc = 3} ins(%x : tensor<8xf32>) outs(%x : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return
}

// -----

func.func @affine_max_without_map(%i: index) {
  // expected-error @below {{'affine.max' expects an affine map, got 3 : i64}}
  %0 = affine.max 3(%i)
  return
}

// -----

func.func @forall_bounds_rank() {
  // expected-error @below {{'scf.forall' expects 2 upper bound values, got 1}}
  scf.forall (%i, %j) in (4) {
  }
  return
}

// -----

func.func @forall_result_count(%t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' expects one result type per shared output, got 2 for 1}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>, tensor<4xf32>) {
    scf.forall.in_parallel {}
  }
  return
}

// -----

func.func @forall_mapping_not_list(%t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' expects the mapping to be a list, got 3 : i64}}
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {} 
  } {mapping = 3}
  return
}
