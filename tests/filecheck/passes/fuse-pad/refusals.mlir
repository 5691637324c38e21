// Pads left as they are, each with the reason `report` prints.
// RUN: xdsl-opt %s -p "fuse-pad{report=true}" 2>&1 | filecheck %s

func.func @reduction(%x: tensor<4x5xf32>, %v: f32) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x5xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %reduced = tensor.pad %sum low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %reduced : tensor<6xf32>
}

func.func @argument(%x: tensor<4x5xf32>, %v: f32) -> tensor<6x5xf32> {
  %plain = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x5xf32> to tensor<6x5xf32>
  return %plain : tensor<6x5xf32>
}

func.func @side_effects(%x: tensor<4xf32>, %table: memref<8xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.negf %in : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %looked_up = tensor.pad %n low[1] high[1] {
  ^bb0(%i: index):
    %t = memref.load %table[%i] : memref<8xf32>
    tensor.yield %t : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %looked_up : tensor<6xf32>
}

func.func @named_reduce(%x: tensor<4x5xf32>, %acc: tensor<4xf32>, %v: f32) -> tensor<6xf32> {
  %sum = linalg.reduce ins(%x : tensor<4x5xf32>) outs(%acc : tensor<4xf32>) dimensions = [1]
    (%in: f32, %o: f32) {
      %s = arith.addf %in, %o : f32
      linalg.yield %s : f32
    }
  %summed = tensor.pad %sum low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %summed : tensor<6xf32>
}

func.func @softmax(%x: tensor<2x3xf32>, %m0: tensor<2xf32>, %a0: tensor<2xf32>, %v: f32) -> tensor<4x3xf32> {
  %out = tensor.empty() : tensor<2x3xf32>
  %scale = tensor.empty() : tensor<2xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>)
      outs(%out, %m0, %a0, %scale : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
      : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  %normalised = tensor.pad %r#0 low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<4x3xf32>
  return %normalised : tensor<4x3xf32>
}

// No batch dimension: all parallel, but the op gives no indexing maps.
func.func @scatter_one(%src: tensor<4x2xf32>, %upd: tensor<2xf32>, %v: f32) -> tensor<6x2xf32> {
  %idx = arith.constant dense<2> : tensor<1xi64>
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<1xi64>, tensor<2xf32>) outs(%src : tensor<4x2xf32>) {
  ^bb0(%old: f32, %new: f32):
    linalg_ext.yield %new : f32
  } -> tensor<4x2xf32>
  %scattered = tensor.pad %r low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x2xf32> to tensor<6x2xf32>
  return %scattered : tensor<6x2xf32>
}

// CHECK:      fuse-pad: @reduction: tensor.pad %reduced not fused: only supported for ops with all parallel iterator types
// CHECK-NEXT: fuse-pad: @argument: tensor.pad %plain not fused: expected source to be produced by a linalg structured op
// CHECK-NEXT: fuse-pad: @side_effects: tensor.pad %looked_up not fused: the pad region has an op with side effects (memref.load)
// CHECK-NEXT: fuse-pad: @named_reduce: tensor.pad %summed not fused: only supported for ops with all parallel iterator types
// CHECK-NEXT: fuse-pad: @softmax: tensor.pad %normalised not fused: only supported for ops with all parallel iterator types
// CHECK-NEXT: fuse-pad: @scatter_one: tensor.pad %scattered not fused: linalg_ext.scatter has no indexing maps
// The IR is unchanged.
// CHECK:      %reduced = tensor.pad %sum
// CHECK:      %plain = tensor.pad %x
// CHECK:      %looked_up = tensor.pad %n
// CHECK:      %summed = tensor.pad %sum
// CHECK:      %normalised = tensor.pad %r low
// CHECK:      %scattered = tensor.pad %r
