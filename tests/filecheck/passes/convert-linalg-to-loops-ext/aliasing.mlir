// Carrying an accumulator is only safe when nothing else writes or reads
// the output's buffer during the reduction. When an output is a view of
// the same buffer as another operand (looking through subview, cast,
// reshapes), the loops load and store it every iteration, as upstream.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Sum the first four columns of %m into its last column.
func.func @same_buffer(%m: memref<4x5xf32>) {
  %in = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<4x5xf32> to memref<4x4xf32, strided<[5, 1]>>
  %col = memref.subview %m[0, 4] [4, 1] [1, 1] : memref<4x5xf32> to memref<4xf32, strided<[5], offset: 4>>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<4x4xf32, strided<[5, 1]>>) outs(%col : memref<4xf32, strided<[5], offset: 4>>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @same_buffer(
// CHECK-NOT:     iter_args
// CHECK:         scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %in[%[[I]], %[[J]]] : memref<4x4xf32, strided<[5, 1]>>
// CHECK-NEXT:        %[[A:.*]] = memref.load %col[%[[I]]] : memref<4xf32, strided<[5], offset: 4>>
// CHECK-NEXT:        %s = arith.addf %[[X]], %[[A]] : f32
// CHECK-NEXT:        memref.store %s, %col[%[[I]]] : memref<4xf32, strided<[5], offset: 4>>

// Distinct buffers (here an argument and a view of another): carried.
func.func @distinct_buffers(%m: memref<4x5xf32>, %out: memref<4x2xf32>) {
  %in = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<4x5xf32> to memref<4x4xf32, strided<[5, 1]>>
  %col = memref.subview %out[0, 1] [4, 1] [1, 1] : memref<4x2xf32> to memref<4xf32, strided<[2], offset: 1>>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%in : memref<4x4xf32, strided<[5, 1]>>) outs(%col : memref<4xf32, strided<[2], offset: 1>>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @distinct_buffers(
// CHECK:         %[[INIT:.*]] = memref.load %col[%[[I:.*]]] : memref<4xf32, strided<[2], offset: 1>>
// CHECK-NEXT:    %[[R:.*]] = scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args(%{{.*}} = %[[INIT]]) -> (f32) {
// CHECK:         memref.store %[[R]], %col[%[[I]]] : memref<4xf32, strided<[2], offset: 1>>

// Two outputs on one buffer: not carried either.
func.func @two_outputs_one_buffer(%x: memref<4x3xi32>, %acc: memref<4xi32>) {
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x3xi32>) outs(%acc, %acc : memref<4xi32>, memref<4xi32>) {
  ^bb0(%v: i32, %a: i32, %b: i32):
    %s = arith.addi %v, %a : i32
    %m = arith.maxsi %v, %b : i32
    linalg.yield %s, %m : i32, i32
  }
  return
}
// CHECK-LABEL: func.func @two_outputs_one_buffer(
// CHECK-NOT:     iter_args
// CHECK:         memref.store %s, %acc
// CHECK-NEXT:    memref.store %m, %acc
