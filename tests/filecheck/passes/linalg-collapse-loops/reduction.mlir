// iterator-type=reduction merges runs of reduction loops; the parallel loops
// stay as they are.
// RUN: xdsl-opt %s -p "linalg-collapse-loops{iterator-type=reduction}" | filecheck %s
// RUN: xdsl-opt %s -p linalg-collapse-loops | filecheck %s --check-prefix=PAR

// Sum over the last two dimensions: d1 and d2 become one reduction loop of 12.
// By default (parallel) there is a single parallel loop: nothing to merge.
func.func @sum_rows(%x: tensor<2x3x4xi32>) -> tensor<2xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<2xi32>) -> tensor<2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : tensor<2x3x4xi32>) outs(%acc : tensor<2xi32>) {
  ^bb0(%in: i32, %o: i32):
    %s = arith.addi %in, %o : i32
    linalg.yield %s : i32
  } -> tensor<2xi32>
  return %r : tensor<2xi32>
}
// CHECK-LABEL: func.func @sum_rows
// CHECK:      %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64], [1 : i64, 2 : i64]] : tensor<2x3x4xi32> into tensor<2x12xi32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x12xi32>) outs(%acc : tensor<2xi32>)
// CHECK:      func.return %[[R]] : tensor<2xi32>
// PAR-LABEL:  func.func @sum_rows
// PAR-NOT:    tensor.collapse_shape
// PAR:        iterator_types = ["parallel", "reduction", "reduction"]
