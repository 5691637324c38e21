// Tagged ops run on copies of their operands placed in memory spaces.
// RUN: xdsl-opt %s -p "linalg-data-place{mem-spaces=1,2,3}" | filecheck %s

// The unit tag takes mem-spaces: inputs in 1 and 2, the output in 3. The
// matmul accumulates into its output, so the output is copied in as well
// (ByteIR does not, and multiplies onto uninitialized memory).
func.func @matmul(%a: memref<4x3xf32>, %b: memref<3x2xf32>, %c: memref<4x2xf32>) {
  linalg.matmul {__byteir_data_place__} ins(%a, %b : memref<4x3xf32>, memref<3x2xf32>) outs(%c : memref<4x2xf32>)
  return
}
// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4x3xf32, 1 : i64>
// CHECK-NEXT:    linalg.copy ins(%a : memref<4x3xf32>) outs(%[[A]] : memref<4x3xf32, 1 : i64>)
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<3x2xf32, 2 : i64>
// CHECK-NEXT:    linalg.copy ins(%b : memref<3x2xf32>) outs(%[[B]] : memref<3x2xf32, 2 : i64>)
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<4x2xf32, 3 : i64>
// CHECK-NEXT:    linalg.copy ins(%c : memref<4x2xf32>) outs(%[[C]] : memref<4x2xf32, 3 : i64>)
// CHECK-NEXT:    linalg.matmul ins(%[[A]], %[[B]] : memref<4x3xf32, 1 : i64>, memref<3x2xf32, 2 : i64>) outs(%[[C]] : memref<4x2xf32, 3 : i64>)
// CHECK-NEXT:    linalg.copy ins(%[[C]] : memref<4x2xf32, 3 : i64>) outs(%c : memref<4x2xf32>)
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<4x3xf32, 1 : i64>
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<3x2xf32, 2 : i64>
// CHECK-NEXT:    memref.dealloc %[[C]] : memref<4x2xf32, 3 : i64>
// CHECK-NEXT:    func.return

// An array tag gives the op's own spaces; a non-integer entry leaves its
// operand in place. linalg.add never reads its output: no copy in.
func.func @own_spaces(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  linalg.add {__byteir_data_place__ = [4, "here", 6]} ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%c : memref<4xf32>)
  return
}
// CHECK-LABEL: func.func @own_spaces
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() : memref<4xf32, 4 : i64>
// CHECK-NEXT:    linalg.copy ins(%a : memref<4xf32>) outs(%[[A]] : memref<4xf32, 4 : i64>)
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<4xf32, 6 : i64>
// CHECK-NEXT:    linalg.add ins(%[[A]], %b : memref<4xf32, 4 : i64>, memref<4xf32>) outs(%[[C]] : memref<4xf32, 6 : i64>)
// CHECK-NEXT:    linalg.copy ins(%[[C]] : memref<4xf32, 6 : i64>) outs(%c : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    memref.dealloc %[[C]]
// CHECK-NEXT:    func.return

// Past the end of the list the last space repeats; -1 leaves the first
// operand in place. A dynamic size is read with memref.dim; the strided
// view's copy gets an identity layout. The generic reads its output
// (it accumulates), so the output is copied in.
func.func @dynamic_view(%a: memref<?x4xi32>, %big: memref<8x8xi32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x4xi32>
  %v = memref.subview %big[0, 2] [%n, 4] [1, 1] : memref<8x8xi32> to memref<?x4xi32, strided<[8, 1], offset: 2>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], __byteir_data_place__ = [-1, 7]} ins(%a : memref<?x4xi32>) outs(%v : memref<?x4xi32, strided<[8, 1], offset: 2>>) {
  ^bb0(%x: i32, %o: i32):
    %s = arith.addi %x, %o : i32
    linalg.yield %s : i32
  }
  return
}
// CHECK-LABEL: func.func @dynamic_view
// CHECK:         %[[N:.*]] = memref.dim %v, %{{.*}} : memref<?x4xi32, strided<[8, 1], offset: 2>>
// CHECK-NEXT:    %[[V:.*]] = memref.alloc(%[[N]]) : memref<?x4xi32, 7 : i64>
// CHECK-NEXT:    linalg.copy ins(%v : memref<?x4xi32, strided<[8, 1], offset: 2>>) outs(%[[V]] : memref<?x4xi32, 7 : i64>)
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a : memref<?x4xi32>) outs(%[[V]] : memref<?x4xi32, 7 : i64>)
// CHECK:         linalg.copy ins(%[[V]] : memref<?x4xi32, 7 : i64>) outs(%v : memref<?x4xi32, strided<[8, 1], offset: 2>>)
// CHECK-NEXT:    memref.dealloc %[[V]]

// Untagged ops, and ops whose tag is neither unit nor an array, are left
// as they are.
func.func @untouched(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.exp ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  linalg.exp {__byteir_data_place__ = "elsewhere"} ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  return
}
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    linalg.exp ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
// CHECK-NEXT:    linalg.exp {__byteir_data_place__ = "elsewhere"} ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
// CHECK-NEXT:    func.return

// In a tiled loop (ByteIR's matmul_tiled, small): each tile is placed,
// inside the loop, and freed at the end of its iteration.
func.func @tiled(%a: memref<4x3xf32>, %out: memref<4x3xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c2 {
    %t = memref.subview %a[%i, 0] [%c2, 3] [1, 1] : memref<4x3xf32> to memref<?x3xf32, strided<[3, 1], offset: ?>>
    %o = memref.subview %out[%i, 0] [%c2, 3] [1, 1] : memref<4x3xf32> to memref<?x3xf32, strided<[3, 1], offset: ?>>
    linalg.exp {__byteir_data_place__} ins(%t : memref<?x3xf32, strided<[3, 1], offset: ?>>) outs(%o : memref<?x3xf32, strided<[3, 1], offset: ?>>)
  }
  return
}
// CHECK-LABEL: func.func @tiled
// CHECK:         scf.for
// CHECK:           %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?x3xf32, 1 : i64>
// CHECK-NEXT:      linalg.copy ins(%t : {{.*}}) outs(%[[T]] : memref<?x3xf32, 1 : i64>)
// CHECK:           %[[O:.*]] = memref.alloc(%{{.*}}) : memref<?x3xf32, 2 : i64>
// CHECK-NEXT:      linalg.exp ins(%[[T]] : memref<?x3xf32, 1 : i64>) outs(%[[O]] : memref<?x3xf32, 2 : i64>)
// CHECK-NEXT:      linalg.copy ins(%[[O]] : memref<?x3xf32, 2 : i64>) outs(%o : {{.*}})
// CHECK-NEXT:      memref.dealloc %[[T]]
// CHECK-NEXT:      memref.dealloc %[[O]]
// CHECK-NEXT:    }
