// A consumer that reads one tile twice (x + x): once its producer is fused
// into the loops, the tile is read twice from the fused producer's result,
// and the producer's own producer follows (found by make fuzz: the second
// read of the already fused slice crashed the pass). The untiled producer
// stays for its use after the loops.
// RUN: linalg-ext-opt %s -p test-linalg-greedy-fusion | filecheck %s

func.func @slice_read_twice(%x: tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %e = tensor.empty() : tensor<6x6xf32>
  %sq = linalg.mul ins(%x, %x : tensor<6x6xf32>, tensor<6x6xf32>) outs(%e : tensor<6x6xf32>) -> tensor<6x6xf32>
  %twice = linalg.add ins(%sq, %sq : tensor<6x6xf32>, tensor<6x6xf32>) outs(%e : tensor<6x6xf32>) -> tensor<6x6xf32>
  %r = scf.for %i = %c0 to %c6 step %c3 iter_args(%acc = %e) -> (tensor<6x6xf32>) {
    %s = tensor.extract_slice %twice[%i, 0] [3, 6] [1, 1] : tensor<6x6xf32> to tensor<3x6xf32>
    %d = tensor.extract_slice %acc[%i, 0] [3, 6] [1, 1] : tensor<6x6xf32> to tensor<3x6xf32>
    %t = linalg.exp ins(%s : tensor<3x6xf32>) outs(%d : tensor<3x6xf32>) -> tensor<3x6xf32>
    %u = tensor.insert_slice %t into %acc[%i, 0] [3, 6] [1, 1] : tensor<3x6xf32> into tensor<6x6xf32>
    scf.yield %u : tensor<6x6xf32>
  }
  return %r, %sq : tensor<6x6xf32>, tensor<6x6xf32>
}

// CHECK-LABEL: func.func @slice_read_twice
// CHECK:         %[[SQ:.*]] = linalg.mul ins(%x, %x : tensor<6x6xf32>, tensor<6x6xf32>)
// CHECK-NOT:     linalg.add
// CHECK:         scf.for %[[I:[a-z0-9_]+]] =
// CHECK:           %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [3, 6] [1, 1]
// CHECK:           %[[SQ_T:.*]] = linalg.mul ins(%[[X]], %[[X]] : tensor<3x6xf32>, tensor<3x6xf32>)
// CHECK:           %[[TW:.*]] = linalg.add ins(%[[SQ_T]], %[[SQ_T]] : tensor<3x6xf32>, tensor<3x6xf32>)
// CHECK:           linalg.exp ins(%[[TW]] : tensor<3x6xf32>)
// CHECK:         return %{{.*}}, %[[SQ]]
