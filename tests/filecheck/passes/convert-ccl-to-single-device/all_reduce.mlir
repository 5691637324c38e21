// convert-ccl-to-single-device: ccl.all_reduce as one device computes it.
// RUN: linalg-ext-opt %s -p convert-ccl-to-single-device | filecheck %s

// One group of all iterations: a first loop stacks every iteration's src
// (reading the init where the body reads its shared output), the rows are
// folded in order, and the loop uses that value.
// CHECK-LABEL: func.func @sum_rows(
// CHECK-SAME:      %[[X:.*]]: tensor<4x3xf32>, %[[OUT:.*]]: tensor<3xf32>)
// CHECK:         %[[STACK0:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK-NEXT:    %[[STACK:.*]] = scf.forall (%[[I:.*]]) in (4) shared_outs(%[[S:.*]] = %[[STACK0]]) -> (tensor<4x3xf32>) {
// CHECK-NEXT:      %[[ROW:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
// CHECK-NEXT:      %[[P:.*]] = linalg.add ins(%[[ROW]], %[[OUT]] : tensor<3xf32>, tensor<3xf32>) outs(%[[OUT]] : tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[P]] into %[[S]][%[[I]], 0] [1, 3] [1, 1] : tensor<3xf32> into tensor<4x3xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[FIRST:.*]] = tensor.extract_slice %[[STACK]][0, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
// CHECK-NEXT:    %[[REST:.*]] = tensor.extract_slice %[[STACK]][1, 0] [3, 3] [1, 1] : tensor<4x3xf32> to tensor<3x3xf32>
// CHECK-NEXT:    %[[SUM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[REST]] : tensor<3x3xf32>) outs(%[[FIRST]] : tensor<3xf32>) {
// CHECK-NEXT:    ^{{.*}}(%[[R:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[ADD:.*]] = arith.addf %[[ACC]], %[[R]] : f32
// CHECK-NEXT:      linalg.yield %[[ADD]] : f32
// CHECK-NEXT:    } -> tensor<3xf32>
// CHECK-NEXT:    %[[LOOP:.*]] = scf.forall (%{{.*}}) in (4) shared_outs(%[[O:.*]] = %[[OUT]]) -> (tensor<3xf32>) {
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[SUM]] into %[[O]][0] [3] [1] : tensor<3xf32> into tensor<3xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[LOOP]] : tensor<3xf32>
func.func @sum_rows(%x: tensor<4x3xf32>, %out: tensor<3xf32>) -> tensor<3xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %out) -> (tensor<3xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    %p = linalg.add ins(%row, %o : tensor<3xf32>, tensor<3xf32>) outs(%o : tensor<3xf32>) -> tensor<3xf32>
    %s = "ccl.all_reduce"(%p) {reduction = "sum", replica_groups = [[0, 1, 2, 3]]} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}

// A 2-d loop from 1 step 2: the replica id is the iteration's ordinal;
// `avg` divides the folded rows by the 4 replicas (integers: arith.divsi).
// CHECK-LABEL: func.func @avg_2d(
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) = (1, 0) to (5, 2) step (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<4x2xi32>) {
// CHECK:           %[[LB:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.subi %[[I]], %[[LB]] : index
// CHECK-NEXT:      %[[STEP:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[ORD:.*]] = arith.divui %[[OFF]], %[[STEP]] : index
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[MUL:.*]] = arith.muli %[[ORD]], %[[TWO]] : index
// CHECK-NEXT:      %[[ID:.*]] = arith.addi %[[MUL]], %[[J]] : index
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%[[ID]], 0] [1, 2] [1, 1] : tensor<2xi32> into tensor<4x2xi32>
// CHECK:           arith.addi
// CHECK:         %[[N:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-NEXT:    ^{{.*}}(%[[V:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      %{{.*}} = arith.divsi %[[V]], %[[N]] : i32
func.func @avg_2d(%x: tensor<4x2xi32>) -> tensor<2xi32> {
  %e = tensor.empty() : tensor<2xi32>
  %r = scf.forall (%i, %j) = (1, 0) to (5, 2) step (2, 1) shared_outs(%o = %e) -> (tensor<2xi32>) {
    %k = affine.apply affine_map<(d0, d1) -> (d0 - 1 + d1)>(%i, %j)
    %row = tensor.extract_slice %x[%k, 0] [1, 2] [1, 1] : tensor<4x2xi32> to tensor<2xi32>
    %s = "ccl.all_reduce"(%row) {reduction = "avg"} : (tensor<2xi32>) -> tensor<2xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [2] [1] : tensor<2xi32> into tensor<2xi32>
    }
  }
  return %r : tensor<2xi32>
}

// One replica per group, and an all-reduce in no loop: its src.
// CHECK-LABEL: func.func @one_replica(
// CHECK-NOT:     ccl.all_reduce
// CHECK:         tensor.parallel_insert_slice %[[ROW:.*]] into
// CHECK:         %[[MAX:.*]] = linalg.max
// CHECK-NEXT:    func.return %[[MAX]]
func.func @one_replica(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.forall (%i) in (2) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<2x3xf32> to tensor<3xf32>
    %s = "ccl.all_reduce"(%row) {reduction = "prod", replica_groups = [[1], [0]]} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  %t = "ccl.all_reduce"(%y) {reduction = "min", replica_groups = [[0]], unique_id = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  %m = linalg.max ins(%r, %t : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %m : tensor<3xf32>
}
