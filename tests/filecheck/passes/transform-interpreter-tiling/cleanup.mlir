// transform.cleanup: on the payload root (no operand), the clean-up of tiled
// IR (canonicalization, folds of slices and affine.min, dead code, CSE),
// the fold of a generic adding zeros, and the removal of private functions
// nothing public refers to (@dead, referred to only by @dead_too, goes too;
// they are declarations here because the meaning test runs every function
// with a body). The form with a handle (clean-up inside each op) and the
// removal of private functions with bodies are tested in
// tests/unit/test_transform_annotations.py.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @tiled
  func.func @tiled(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>, %c: tensor<8x12xf32>) -> tensor<8x12xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x12xf32>) outs(%c : tensor<8x12xf32>) -> tensor<8x12xf32>
    %s = func.call @used(%r) : (tensor<8x12xf32>) -> tensor<8x12xf32>
    return %s : tensor<8x12xf32>
  }
  // The loop's constants are hoisted and merged; 4 divides 8, so the
  // slices are static.
  // CHECK:      %[[C4:.*]] = arith.constant 4 : index
  // CHECK:      scf.for %[[I:[0-9]+]] = %{{.*}} to %{{.*}} step %[[C4]]
  // CHECK:        tensor.extract_slice %a[%[[I]], 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  // CHECK:        linalg.matmul

  // CHECK-LABEL: func.func private @used
  func.func private @used(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8x12xf32>
    %zeros = linalg.fill ins(%z : f32) outs(%e : tensor<8x12xf32>) -> tensor<8x12xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<8x12xf32>) outs(%zeros : tensor<8x12xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = arith.addf %v, %o : f32
      linalg.yield %t : f32
    } -> tensor<8x12xf32>
    return %y : tensor<8x12xf32>
  }
  // CHECK-NEXT:   func.return %x : tensor<8x12xf32>

  // CHECK-NOT: @dead
  func.func private @dead(f32) -> f32
  func.func private @dead_too(tensor<4xf32>) -> tensor<4xf32> attributes {ref = @dead}

  // CHECK-LABEL: func.func @handle_only
  func.func @handle_only(%x: index) -> (index, index) {
    %c1 = arith.constant 1 : index
    %a = arith.addi %x, %c1 : index
    %b = arith.addi %x, %c1 : index
    return %a, %b : index, index
  }
  // CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : index
  // CHECK-NEXT:   %[[SUM:.*]] = arith.addi %x, %[[ONE]] : index
  // CHECK-NEXT:   func.return %[[SUM]], %[[SUM]] : index, index

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %mm tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.cleanup
    transform.yield
  }
}
