// ByteIR's FoldGenericOp: an all-parallel generic adding its one input to a
// zero-filled init is its input. ByteIR's defects are fixed: a transposing
// output map, an add of the input to itself, a non-zero fill and an op on
// buffers are not folded; a less static input is cast to the result type.
// RUN: xdsl-opt %s -p canonicalize-ext | filecheck %s

// CHECK-LABEL: func.func @add_zero_fill
// CHECK-NEXT:  func.return %x, %i : tensor<2x3xf32>, tensor<4xi32>
func.func @add_zero_fill(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%z : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %b, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %izero = arith.constant 0 : i32
  %ie = tensor.empty() : tensor<4xi32>
  %iz = linalg.fill ins(%izero : i32) outs(%ie : tensor<4xi32>) -> tensor<4xi32>
  %ir = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%i : tensor<4xi32>) outs(%iz : tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<4xi32>
  return %r, %ir : tensor<2x3xf32>, tensor<4xi32>
}

// A dynamic input is cast to the static result type.
// CHECK-LABEL: func.func @dynamic_input
// CHECK-NEXT:  %{{.*}} = tensor.cast %x : tensor<?xf32> to tensor<4xf32>
// CHECK-NOT:   linalg.generic
func.func @dynamic_input(%x: tensor<?xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<?xf32>) outs(%z : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// ByteIR folds these too and gets them wrong: a transpose (output map not
// the identity), twice the input (the add does not read the init) and a
// fill with one.
// CHECK-LABEL: func.func @not_copies
// CHECK-COUNT-3: linalg.generic
func.func @not_copies(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %o = linalg.fill ins(%one : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%z : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x2xf32>) outs(%o : tensor<2x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %t, %d, %p : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// On buffers the generic writes its output: kept.
// CHECK-LABEL: func.func @on_buffers
// CHECK:       linalg.generic
func.func @on_buffers(%x: memref<4xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
