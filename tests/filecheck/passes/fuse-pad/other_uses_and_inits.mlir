// The producer runs once: other users of the padded result read the interior of
// the padded tensor, other results come from the fused op. A use before the
// pad cannot wait for the fused op: then the producer is kept (computed twice,
// as upstream always does). A body that reads its init still sees the init.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s

func.func @two_results_other_uses(%x: tensor<4x4xf32>, %v: f32) -> (tensor<6x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = tensor.empty() : tensor<4x4xf32>
  %b = tensor.empty() : tensor<4x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    %n = arith.negf %in : f32
    %s = arith.mulf %in, %in : f32
    linalg.yield %n, %s : f32, f32
  } -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %p = tensor.pad %r#1 low[2, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x4xf32> to tensor<6x4xf32>
  return %p, %r#0, %r#1 : tensor<6x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
func.func @use_before_pad(%x: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<6xf32>) {
  %a = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %early = linalg.add ins(%r, %r : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %p = tensor.pad %r low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %early, %p : tensor<4xf32>, tensor<6xf32>
}
func.func @body_reads_init(%x: tensor<3xf32>, %acc: tensor<3xf32>, %v: f32) -> tensor<5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%acc : tensor<3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  %p = tensor.pad %r low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<3xf32> to tensor<5xf32>
  return %p : tensor<5xf32>
}
// CHECK-LABEL: func.func @two_results_other_uses
// CHECK:      %[[F:.*]] = linalg.fill ins(%v : f32) outs(%{{.*}} : tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][2, 0] [4, 4] [1, 1] : tensor<6x4xf32> to tensor<4x4xf32>
// CHECK-NEXT: %[[G0:.*]], %[[G1:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x4xf32>) outs(%a, %[[S]] : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK:      %[[P:.*]] = tensor.insert_slice %[[G1]] into %[[F]][2, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: %[[I:.*]] = tensor.extract_slice %[[P]][2, 0] [4, 4] [1, 1] : tensor<6x4xf32> to tensor<4x4xf32>
// CHECK-NEXT: func.return %[[P]], %[[G0]], %[[I]] : tensor<6x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>

// CHECK-LABEL: func.func @use_before_pad
// CHECK:      %r = linalg.generic
// CHECK:      %early = linalg.add ins(%r, %r
// CHECK:      %[[S:.*]] = tensor.extract_slice
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[S]] : tensor<4xf32>)

// CHECK-LABEL: func.func @body_reads_init
// CHECK:      %[[F:.*]] = linalg.fill ins(%v : f32)
// CHECK-NEXT: %[[SEED:.*]] = tensor.insert_slice %acc into %[[F]][1] [3] [1] : tensor<3xf32> into tensor<5xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[SEED]][1] [3] [1] : tensor<5xf32> to tensor<3xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<3xf32>)
// CHECK:      tensor.insert_slice %[[G]] into %[[SEED]][1] [3] [1] : tensor<3xf32> into tensor<5xf32>
