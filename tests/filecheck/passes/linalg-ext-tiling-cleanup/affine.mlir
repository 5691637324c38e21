// Index arithmetic of tile sizes and offsets: constant operands fold into
// the map (all constant: an arith.constant); an affine.min/max over loops
// with constant bounds where one result wins at every iteration is that
// result (the tile size of a loop whose step divides its extent is the
// step); a partial last tile keeps its affine.min.
// RUN: xdsl-opt %s -p linalg-ext-tiling-cleanup | filecheck %s

// CHECK-LABEL: func.func @constant_operands
// CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:   %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:   %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG:   %[[P:.*]] = affine.apply affine_map<(d0) -> ((d0 + 4))> (%n)
// CHECK-DAG:   %[[M:.*]] = affine.min affine_map<(d0) -> (d0, 5)> (%n)
// CHECK-NOT:   affine.
// CHECK:       func.return %[[C6]], %[[C3]], %[[C9]], %[[P]], %[[M]]
func.func @constant_operands(%n: index) -> (index, index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %a = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c2)[%c4]
  %b = affine.min affine_map<(d0, d1) -> (d0 + 1, d1, 7)>(%c2, %c4)
  %c = affine.max affine_map<(d0) -> (d0 * 2, 9, d0)>(%c4)
  %d = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%n, %c4)
  %e = affine.min affine_map<(d0, d1, d2) -> (d0, d1 + 3, 8)>(%n, %c2, %n)
  return %a, %b, %c, %d, %e : index, index, index, index, index
}

// An identity affine.apply is its operand.
// CHECK-LABEL: func.func @identity_apply
// CHECK-NEXT:  func.return %n
func.func @identity_apply(%n: index) -> index {
  %a = affine.apply affine_map<(d0) -> (d0)>(%n)
  return %a : index
}

// Tiles of 4 over 16: every tile is full, the slices become static.
// CHECK-LABEL: func.func @divisible_tiles
// CHECK:       scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %out)
// CHECK-NOT:   affine.min
// CHECK-NEXT:  %[[X:.*]] = tensor.extract_slice %x[%[[IV]]] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:  %[[O:.*]] = tensor.extract_slice %[[ACC]][%[[IV]]] [4] [1] : tensor<16xf32> to tensor<4xf32>
// CHECK-NEXT:  %[[E:.*]] = linalg.exp ins(%[[X]] : tensor<4xf32>) outs(%[[O]] : tensor<4xf32>)
// CHECK-NEXT:  %[[W:.*]] = tensor.insert_slice %[[E]] into %[[ACC]][%[[IV]]] [4] [1] : tensor<4xf32> into tensor<16xf32>
// CHECK-NEXT:  scf.yield %[[W]]
func.func @divisible_tiles(%x: tensor<16xf32>, %out: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %iv = %c0 to %c16 step %c4 iter_args(%acc = %out) -> (tensor<16xf32>) {
    %sz = affine.min affine_map<(d0) -> (4, -d0 + 16)>(%iv)
    %xs = tensor.extract_slice %x[%iv] [%sz] [1] : tensor<16xf32> to tensor<?xf32>
    %os = tensor.extract_slice %acc[%iv] [%sz] [1] : tensor<16xf32> to tensor<?xf32>
    %e = linalg.exp ins(%xs : tensor<?xf32>) outs(%os : tensor<?xf32>) -> tensor<?xf32>
    %w = tensor.insert_slice %e into %acc[%iv] [%sz] [1] : tensor<?xf32> into tensor<16xf32>
    scf.yield %w : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// Tiles of 4 over 10: the last one is partial, the affine.min stays.
// CHECK-LABEL: func.func @partial_tiles
// CHECK:       affine.min affine_map<(d0) -> (4, ((d0 * -1) + 10))>
// CHECK:       tensor.extract_slice %x[%{{.*}}] [%{{.*}}] [1] : tensor<10xf32> to tensor<?xf32>
func.func @partial_tiles(%x: tensor<10xf32>, %out: tensor<10xf32>) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %iv = %c0 to %c10 step %c4 iter_args(%acc = %out) -> (tensor<10xf32>) {
    %sz = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%iv)
    %xs = tensor.extract_slice %x[%iv] [%sz] [1] : tensor<10xf32> to tensor<?xf32>
    %os = tensor.extract_slice %acc[%iv] [%sz] [1] : tensor<10xf32> to tensor<?xf32>
    %e = linalg.exp ins(%xs : tensor<?xf32>) outs(%os : tensor<?xf32>) -> tensor<?xf32>
    %w = tensor.insert_slice %e into %acc[%iv] [%sz] [1] : tensor<?xf32> into tensor<10xf32>
    scf.yield %w : tensor<10xf32>
  }
  return %r : tensor<10xf32>
}

// Over two loops, one result is always the smallest but not constant: the
// min becomes that result; the affine.max is its largest result alike.
// CHECK-LABEL: func.func @dominating_result
// CHECK:       %[[A:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%{{.*}}, %{{.*}})
// CHECK-NEXT:  %[[B:.*]] = affine.apply affine_map<(d0) -> ((d0 + 8))> (%{{.*}})
// CHECK-NEXT:  %[[S:.*]] = arith.addi %[[A]], %[[B]] : index
func.func @dominating_result() -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c3 iter_args(%sum = %c0) -> (index) {
    %r2 = scf.for %j = %c0 to %c3 step %c1 iter_args(%sum2 = %sum) -> (index) {
      %m = affine.min affine_map<(d0, d1) -> (d0 + d1, 20, d0 * 2 + d1 + 1)>(%i, %j)
      %n = affine.max affine_map<(d0) -> (d0, d0 + 8, 3)>(%i)
      %s = arith.addi %m, %n : index
      %t = arith.addi %sum2, %s : index
      scf.yield %t : index
    }
    scf.yield %r2 : index
  }
  return %r : index
}

// An affine.apply feeding another affine op is composed into its map (as
// upstream's canonicalizer does), unless the result would not be affine.
// CHECK-LABEL: func.func @composed
// CHECK-NEXT:  %[[A:.*]] = affine.apply affine_map<(d0) -> ((d0 * 2))> (%i)
// CHECK-NEXT:  %[[B:.*]] = affine.apply affine_map<(d0, d1) -> ((((d0 * 2) + d1) + 1))> (%i, %j)
// CHECK-NEXT:  %[[M:.*]] = affine.min affine_map<(d0) -> ((d0 * 2), 10)> (%i)
// CHECK-NEXT:  %[[S:.*]] = affine.apply affine_map<()[s0] -> ((s0 * 6))> ()[%i]
// CHECK-NEXT:  %[[P:.*]] = affine.apply affine_map<()[s0, s1] -> ((s0 * s1))> ()[%[[A]], %j]
// CHECK-NEXT:  func.return %[[B]], %[[M]], %[[S]], %[[P]]
func.func @composed(%i: index, %j: index) -> (index, index, index, index) {
  %a = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
  %b = affine.apply affine_map<(d0, d1) -> (d0 + d1 + 1)>(%a, %j)
  %m = affine.min affine_map<(d0) -> (d0, 10)>(%a)
  %s = affine.apply affine_map<()[s0] -> (s0 * 3)>()[%a]
  %p = affine.apply affine_map<()[s0, s1] -> (s0 * s1)>()[%a, %j]
  return %b, %m, %s, %p : index, index, index, index
}
