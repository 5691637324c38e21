// Generics on memrefs: operands collapsed with memref.collapse_shape, or
// viewed through a rank-reducing memref.subview (whose type has upstream's
// strided layout); there are no results to restore.
// RUN: xdsl-opt %s -p linalg-fold-unit-extent-dims | filecheck %s --check-prefix=RESHAPE
// RUN: xdsl-opt %s -p "linalg-fold-unit-extent-dims{use-rank-reducing-slices=true}" | filecheck %s --check-prefix=SLICES

// RESHAPE-LABEL: func.func @copy_scaled(
// RESHAPE-NEXT:    %[[X:.*]] = memref.collapse_shape %x {{\[}}[0 : i64, 1 : i64], [2 : i64]] : memref<?x1x3xf32> into memref<?x3xf32>
// RESHAPE-NEXT:    %[[Y:.*]] = memref.collapse_shape %y {{\[}}[0 : i64, 1 : i64], [2 : i64]] : memref<?x1x3xf32> into memref<?x3xf32>
// RESHAPE-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : memref<?x3xf32>) outs(%[[Y]] : memref<?x3xf32>)
// SLICES-LABEL: func.func @copy_scaled(
// SLICES-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// SLICES-NEXT:    %[[DX:.*]] = memref.dim %x, %[[C0]] : memref<?x1x3xf32>
// SLICES-NEXT:    %[[X:.*]] = memref.subview %x[0, 0, 0] [%[[DX]], 1, 3] [1, 1, 1] : memref<?x1x3xf32> to memref<?x3xf32, strided<[3, 1]>>
// SLICES-NEXT:    %[[DY:.*]] = memref.dim %y, %[[C0]] : memref<?x1x3xf32>
// SLICES-NEXT:    %[[Y:.*]] = memref.subview %y[0, 0, 0] [%[[DY]], 1, 3] [1, 1, 1] : memref<?x1x3xf32> to memref<?x3xf32, strided<[3, 1]>>
// SLICES-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : memref<?x3xf32, strided<[3, 1]>>) outs(%[[Y]] : memref<?x3xf32, strided<[3, 1]>>)
func.func @copy_scaled(%x: memref<?x1x3xf32>, %y: memref<?x1x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<?x1x3xf32>) outs(%y : memref<?x1x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// A reduction over a unit loop into a 1-element buffer: no loop is left.
// RESHAPE-LABEL: func.func @sum_one(
// RESHAPE-NEXT:    %[[X:.*]] = memref.collapse_shape %x [] : memref<1x1xi32> into memref<i32>
// RESHAPE-NEXT:    %[[Y:.*]] = memref.collapse_shape %y [] : memref<1xi32> into memref<i32>
// RESHAPE-NEXT:    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%[[X]] : memref<i32>) outs(%[[Y]] : memref<i32>)
// SLICES-LABEL: func.func @sum_one(
// SLICES-NEXT:    %[[X:.*]] = memref.subview %x[0, 0] [1, 1] [1, 1] : memref<1x1xi32> to memref<i32, strided<[]>>
// SLICES-NEXT:    %[[Y:.*]] = memref.subview %y[0] [1] [1] : memref<1xi32> to memref<i32, strided<[]>>
// SLICES-NEXT:    linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%[[X]] : memref<i32, strided<[]>>) outs(%[[Y]] : memref<i32, strided<[]>>)
func.func @sum_one(%x: memref<1x1xi32>, %y: memref<1xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1x1xi32>) outs(%y : memref<1xi32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  }
  return
}

// A memref with a layout other than the identity: left alone, as upstream.
// RESHAPE-LABEL: func.func @strided(
// RESHAPE-NEXT:    %[[V:.*]] = memref.subview
// RESHAPE-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%[[V]] : memref<1x3xf32, strided<[8, 2], offset: 9>>) outs(%y : memref<3x1xf32>)
// SLICES-LABEL: func.func @strided(
// SLICES-NEXT:    %[[V:.*]] = memref.subview
// SLICES-NEXT:    linalg.generic {{.*}} ins(%[[V]] : memref<1x3xf32, strided<[8, 2], offset: 9>>) outs(%y : memref<3x1xf32>)
func.func @strided(%b: memref<2x8xf32>, %y: memref<3x1xf32>) {
  %x = memref.subview %b[1, 1] [1, 3] [1, 2] : memref<2x8xf32> to memref<1x3xf32, strided<[8, 2], offset: 9>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x3xf32, strided<[8, 2], offset: 9>>) outs(%y : memref<3x1xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}
