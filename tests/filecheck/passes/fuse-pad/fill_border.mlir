// fill=border writes the pad value only into the border slabs (upstream fills
// everything, then overwrites the interior), when the producer writes the
// whole interior; otherwise (its body reads the init) the whole tensor.
// Dynamic sizes work too: a high slab starts at low + size and is high wide.
// RUN: xdsl-opt %s -p "fuse-pad{fill=border}" | filecheck %s

func.func @border_slabs(%x: tensor<2x3xf32>, %v: f32) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x3xf32>
  %p = tensor.pad %r low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  return %p : tensor<5x4xf32>
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
func.func @dynamic_border(%x: tensor<?x?xf32>, %l: index, %h: index, %v: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<?x?xf32>
  %p = tensor.pad %r low[%l, 1] high[%h, %l] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @border_slabs
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<5x4xf32>
// CHECK-NEXT: %[[L0:.*]] = tensor.extract_slice %[[E]][0, 0] [1, 4] [1, 1] : tensor<5x4xf32> to tensor<1x4xf32>
// CHECK-NEXT: %[[F0:.*]] = linalg.fill ins(%v : f32) outs(%[[L0]] : tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[B0:.*]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<5x4xf32>
// CHECK-NEXT: %[[H0:.*]] = tensor.extract_slice %[[B0]][3, 0] [2, 4] [1, 1] : tensor<5x4xf32> to tensor<2x4xf32>
// CHECK-NEXT: %[[F1:.*]] = linalg.fill ins(%v : f32) outs(%[[H0]] : tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[B1:.*]] = tensor.insert_slice %[[F1]] into %[[B0]][3, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<5x4xf32>
// No low slab in dimension 1 (its low pad is 0); the high one spans the
// interior rows only.
// CHECK-NEXT: %[[H1:.*]] = tensor.extract_slice %[[B1]][1, 3] [2, 1] [1, 1] : tensor<5x4xf32> to tensor<2x1xf32>
// CHECK-NEXT: %[[F2:.*]] = linalg.fill ins(%v : f32) outs(%[[H1]] : tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK-NEXT: %[[B2:.*]] = tensor.insert_slice %[[F2]] into %[[B1]][1, 3] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<5x4xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[B2]][1, 0] [2, 3] [1, 1] : tensor<5x4xf32> to tensor<2x3xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<2x3xf32>)
// CHECK:      tensor.insert_slice %[[G]] into %[[B2]][1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<5x4xf32>

// CHECK-LABEL: func.func @body_reads_init
// CHECK:      linalg.fill ins(%v : f32) outs(%{{.*}} : tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: tensor.insert_slice %acc into

// CHECK-LABEL: func.func @dynamic_border
// CHECK:      %[[N1:.*]] = affine.apply affine_map<()[s0, s1] -> (((s0 + s1) + 1))> ()[%d1, %l]
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%{{.*}}, %[[N1]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[HS:.*]] = affine.apply affine_map<()[s0, s1] -> ((s0 + s1))> ()[%l, %d0]
// CHECK-NEXT: %[[L0:.*]] = tensor.extract_slice %[[E]][0, 0] [%l, %[[N1]]] [1, 1]
// CHECK-NEXT: linalg.fill ins(%v : f32) outs(%[[L0]]
// CHECK-NEXT: %[[B0:.*]] = tensor.insert_slice
// CHECK-NEXT: tensor.extract_slice %[[B0]][%[[HS]], 0] [%h, %[[N1]]] [1, 1]
