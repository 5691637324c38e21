// affine.for with bounds that are maps of operands: the lower bound is the
// greatest of its map's results (arith.maxsi), the upper bound the least
// of its map's (arith.minsi); iter_args carried as scf.for's; affine loads
// and stores in the body lowered too.
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

// A tiled sum: for each tile of 3, the elements from the tile's start to
// the lesser of its end and %n.
func.func @tiled_sum(%a: memref<?xi32>, %n: index) -> i32 {
  %zero = arith.constant 0 : i32
  %total = affine.for %t = 0 to %n step 3 iter_args(%acc = %zero) -> (i32) {
    %part = affine.for %i = max affine_map<(d0)[s0] -> (d0, s0 - 8)>(%t)[%n] to min affine_map<(d0)[s0] -> (d0 + 3, s0)>(%t)[%n] iter_args(%p = %acc) -> (i32) {
      %v = affine.load %a[%i] : memref<?xi32>
      %s = arith.addi %p, %v : i32
      affine.yield %s : i32
    }
    affine.yield %part : i32
  }
  return %total : i32
}
// CHECK-LABEL: func.func @tiled_sum(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %total = scf.for %t = %[[C0]] to %n step %[[C3]] iter_args(%acc = %zero) -> (i32) {
// CHECK-NEXT:      %[[CM8:.*]] = arith.constant -8 : index
// CHECK-NEXT:      %[[D3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[NM8:.*]] = arith.addi %n, %[[CM8]] : index
// CHECK-NEXT:      %[[LB:.*]] = arith.maxsi %t, %[[NM8]] : index
// CHECK-NEXT:      %[[T3:.*]] = arith.addi %t, %[[D3]] : index
// CHECK-NEXT:      %[[UB:.*]] = arith.minsi %[[T3]], %n : index
// CHECK-NEXT:      %[[PART:.*]] = scf.for %i = %[[LB]] to %[[UB]] step %[[ONE]] iter_args(%p = %acc) -> (i32) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %a[%i] : memref<?xi32>
// CHECK-NEXT:        %s = arith.addi %p, %[[V]] : i32
// CHECK-NEXT:        scf.yield %s : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield %[[PART]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %total : i32

// Bounds from a shape and symbols; an empty range runs no iteration.
func.func @shifted(%a: memref<6xf32>, %b: memref<6xf32>, %lo: index, %hi: index) {
  affine.for %i = affine_map<()[s0] -> (s0 + 1)>()[%lo] to affine_map<()[s0] -> (s0 + 2)>()[%hi] {
    %v = affine.load %a[%i - 1] : memref<6xf32>
    affine.store %v, %b[%i] : memref<6xf32>
  }
  return
}
// CHECK-LABEL: func.func @shifted(
// CHECK:         %[[LB:.*]] = arith.addi %lo, %{{.*}} : index
// CHECK:         %[[UB:.*]] = arith.addi %hi, %{{.*}} : index
// CHECK:         scf.for %i = %[[LB]] to %[[UB]] step %{{.*}} {
// CHECK:           memref.load %a[%{{.*}}] : memref<6xf32>
// CHECK:           memref.store %{{.*}}, %b[%i] : memref<6xf32>
