// tensor.dim of values whose extents are known without the tensor: a
// slice's size, tensor.empty's size operand, a destination-style result's
// init, an scf.for result or iter_arg updated in place (its init), a static
// extent (a constant). (A loop that may change the shape keeps its dim:
// tests/unit/test_tiling_cleanup.py, as such a loop does not bufferize in
// place.)
// RUN: xdsl-opt %s -p linalg-ext-tiling-cleanup | filecheck %s

// CHECK-LABEL: func.func @dim_of_slice
// CHECK-NEXT:  func.return %n, %n
func.func @dim_of_slice(%t: tensor<8x8xf32>, %n: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %s = tensor.extract_slice %t[0, 0] [1, %n] [1, 1] : tensor<8x8xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %s, %c0 : tensor<?xf32>
  %s2 = tensor.extract_slice %t[0, 0] [%n, 2] [1, 1] : tensor<8x8xf32> to tensor<?x2xf32>
  %d2 = tensor.dim %s2, %c0 : tensor<?x2xf32>
  return %d, %d2 : index, index
}

// CHECK-LABEL: func.func @dim_of_empty_and_dps
// CHECK:       %n = tensor.dim %x, %{{.*}} : tensor<?xf32>
// CHECK-NOT:   tensor.dim
// CHECK:       func.return %n, %n, %{{.*}}
func.func @dim_of_empty_and_dps(%x: tensor<?xf32>) -> (index, index, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %d1 = tensor.dim %e, %c0 : tensor<?xf32>
  %y = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %d2 = tensor.dim %y, %c0 : tensor<?xf32>
  return %d1, %d2, %y : index, index, tensor<?xf32>
}

// Tiles of a dynamic tensor: the extent is asked of the loop's init, once,
// outside the loop.
// CHECK-LABEL: func.func @dim_of_loop
// CHECK:       %[[N:.*]] = tensor.dim %out, %[[C0:.*]] : tensor<?xf32>
// CHECK:       scf.for
// CHECK-NOT:   tensor.dim
// CHECK:       func.return %{{.*}}, %[[N]]
func.func @dim_of_loop(%x: tensor<?xf32>, %out: tensor<?xf32>) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %out, %c0 : tensor<?xf32>
  %r = scf.for %iv = %c0 to %n step %c4 iter_args(%acc = %out) -> (tensor<?xf32>) {
    %m = tensor.dim %acc, %c0 : tensor<?xf32>
    %sz = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%iv)[%m]
    %xs = tensor.extract_slice %x[%iv] [%sz] [1] : tensor<?xf32> to tensor<?xf32>
    %os = tensor.extract_slice %acc[%iv] [%sz] [1] : tensor<?xf32> to tensor<?xf32>
    %e = linalg.exp ins(%xs : tensor<?xf32>) outs(%os : tensor<?xf32>) -> tensor<?xf32>
    %w = tensor.insert_slice %e into %acc[%iv] [%sz] [1] : tensor<?xf32> into tensor<?xf32>
    scf.yield %w : tensor<?xf32>
  }
  %d = tensor.dim %r, %c0 : tensor<?xf32>
  return %r, %d : tensor<?xf32>, index
}

// CHECK-LABEL: func.func @static_dim
// CHECK-NEXT:  %[[C:.*]] = arith.constant 7 : index
// CHECK-NEXT:  func.return %[[C]]
func.func @static_dim(%x: tensor<3x7xf32>) -> index {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %x, %c1 : tensor<3x7xf32>
  return %d : index
}
