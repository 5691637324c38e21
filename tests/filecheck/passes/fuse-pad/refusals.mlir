// Pads left as they are, each with the reason `report` prints.
// RUN: xdsl-opt %s -p "fuse-pad{report=true}" 2>&1 | filecheck %s

func.func @refusals(%x: tensor<4x5xf32>, %y: tensor<4xf32>, %v: f32) -> (tensor<6xf32>, tensor<6x5xf32>, tensor<6x5xf32>, tensor<6x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x5xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %reduction = tensor.pad %sum low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  %argument = tensor.pad %x low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x5xf32> to tensor<6x5xf32>
  %ne = tensor.empty() : tensor<4x5xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x5xf32>) outs(%ne : tensor<4x5xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.negf %in : f32
    linalg.yield %m : f32
  } -> tensor<4x5xf32>
  %indexed = tensor.pad %n low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x5xf32> to tensor<6x5xf32>
  %computed = tensor.pad %n low[0, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    %w = arith.mulf %v, %v : f32
    tensor.yield %w : f32
  } : tensor<4x5xf32> to tensor<6x5xf32>
  return %reduction, %argument, %indexed, %computed : tensor<6xf32>, tensor<6x5xf32>, tensor<6x5xf32>, tensor<6x5xf32>
}
// CHECK:      fuse-pad: @refusals: tensor.pad %reduction not fused: only supported for ops with all parallel iterator types
// CHECK-NEXT: fuse-pad: @refusals: tensor.pad %argument not fused: expected source to be produced by a linalg structured op
// CHECK-NEXT: fuse-pad: @refusals: tensor.pad %indexed not fused: the pad value depends on the region's index arguments
// CHECK-NEXT: fuse-pad: @refusals: tensor.pad %computed not fused: non constant padding (the pad value is computed in the region)
// The IR is unchanged.
// CHECK:      %reduction = tensor.pad %sum
// CHECK:      %argument = tensor.pad %x
// CHECK:      %indexed = tensor.pad %n
// CHECK:      %computed = tensor.pad %n
