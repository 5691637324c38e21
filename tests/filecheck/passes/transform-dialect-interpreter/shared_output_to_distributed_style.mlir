// transform.structured.shared_output_to_distributed_style (ByteIR's op, script
// form) on what tile_reduction_using_forall makes of a row reduction split
// over 5 threads: each iteration reduces its columns into a fresh fill of the
// whole result, the 5 partial results are combined by ccl.all_reduce (the
// iterations are its replicas) and merged into the output in the loop. The
// merge is ByteIR's linalg.generic (@sum_squares) or MLIR 22's linalg.reduce
// (@max_rows, i32); `prod` is ours (ByteIR's TODO, @prod_2d).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#two = affine_map<(d0) -> (d0 * 2)>

// CHECK-LABEL: func.func @sum_squares(
// CHECK-SAME:      %[[X:.*]]: tensor<4x10xf32>, %[[OUT:.*]]: tensor<4xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[FILL:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[LOOP:.*]] = scf.forall (%[[T:.*]]) in (5) shared_outs(%[[ACC:.*]] = %[[FILL]]) -> (tensor<4xf32>) {
// CHECK:           %[[PART:.*]] = linalg.generic {{.*}} outs(%[[ACC]] : tensor<4xf32>)
// CHECK:           %[[ALL:.*]] = "ccl.all_reduce"(%[[PART]]) {reduction = "sum", replica_groups = {{\[\[}}0 : i64, 1 : i64, 2 : i64, 3 : i64, 4 : i64]]} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:      %[[MERGED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[ALL]] : tensor<4xf32>) outs(%[[OUT]] : tensor<4xf32>) {
// CHECK-NEXT:      ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:        linalg.yield %[[SUM]] : f32
// CHECK-NEXT:      } -> tensor<4xf32>
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %[[MERGED]] into %[[ACC]][0] [4] [1] : tensor<4xf32> into tensor<4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[LOOP]] : tensor<4xf32>
func.func @sum_squares(%x: tensor<4x10xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty = tensor.empty() : tensor<4x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x5xf32>) -> tensor<4x5xf32>
  %partial = scf.forall (%t) in (5) shared_outs(%acc = %init) -> (tensor<4x5xf32>) {
    %col = affine.apply #two(%t)
    %in = tensor.extract_slice %x[0, %col] [4, 2] [1, 1] : tensor<4x10xf32> to tensor<4x2xf32>
    %mine = tensor.extract_slice %acc[0, %t] [4, 1] [1, 1] : tensor<4x5xf32> to tensor<4xf32>
    %part = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : tensor<4x2xf32>) outs(%mine : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %sq = arith.mulf %a, %a : f32
      %s = arith.addf %sq, %b : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %part into %acc[0, %t] [4, 1] [1, 1] : tensor<4xf32> into tensor<4x5xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<4x5xf32>) outs(%out : tensor<4xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %merged : tensor<4xf32>
}

// CHECK-LABEL: func.func @max_rows(
// CHECK:         %[[LOW:.*]] = arith.constant -2147483648 : i32
// CHECK:         linalg.fill ins(%[[LOW]] : i32) outs(%{{.*}} : tensor<3xi32>) -> tensor<3xi32>
// CHECK:         scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<3xi32>) {
// CHECK:           "ccl.all_reduce"(%{{.*}}) {reduction = "max", replica_groups = {{\[\[}}0 : i64, 1 : i64]]} : (tensor<3xi32>) -> tensor<3xi32>
// CHECK-NEXT:      linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK-NEXT:      ^{{.*}}
// CHECK-NEXT:        arith.maxsi
func.func @max_rows(%x: tensor<3x4xi32>, %out: tensor<3xi32>) -> tensor<3xi32> {
  %low = arith.constant -2147483648 : i32
  %empty = tensor.empty() : tensor<3x2xi32>
  %init = linalg.fill ins(%low : i32) outs(%empty : tensor<3x2xi32>) -> tensor<3x2xi32>
  %partial = scf.forall (%t) in (2) shared_outs(%acc = %init) -> (tensor<3x2xi32>) {
    %col = affine.apply #two(%t)
    %in = tensor.extract_slice %x[0, %col] [3, 2] [1, 1] : tensor<3x4xi32> to tensor<3x2xi32>
    %mine = tensor.extract_slice %acc[0, %t] [3, 1] [1, 1] : tensor<3x2xi32> to tensor<3xi32>
    %part = linalg.reduce ins(%in : tensor<3x2xi32>) outs(%mine : tensor<3xi32>) dimensions = [1]
      (%a: i32, %b: i32) {
        %m = arith.maxsi %a, %b : i32
        linalg.yield %m : i32
      }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %part into %acc[0, %t] [3, 1] [1, 1] : tensor<3xi32> into tensor<3x2xi32>
    }
  }
  %merged = linalg.reduce ins(%partial : tensor<3x2xi32>) outs(%out : tensor<3xi32>) dimensions = [1] {__merge__}
    (%a: i32, %b: i32) {
      %m = arith.maxsi %a, %b : i32
      linalg.yield %m : i32
    }
  return %merged : tensor<3xi32>
}

// A 2-d loop with a step of 2: 4 iterations, so 4 replicas (ByteIR counts
// the product of the upper bounds, 8); `prod` with its identity 1.
// CHECK-LABEL: func.func @prod_2d(
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 2) step (2, 1) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<3xf32>) {
// CHECK:           "ccl.all_reduce"(%{{.*}}) {reduction = "prod", replica_groups = {{\[\[}}0 : i64, 1 : i64, 2 : i64, 3 : i64]]} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK:             arith.mulf
func.func @prod_2d(%x: tensor<3x8xf32>, %out: tensor<3xf32>) -> tensor<3xf32> {
  %one = arith.constant 1.000000e+00 : f32
  %empty = tensor.empty() : tensor<3x4xf32>
  %init = linalg.fill ins(%one : f32) outs(%empty : tensor<3x4xf32>) -> tensor<3x4xf32>
  %partial = scf.forall (%i, %j) = (0, 0) to (4, 2) step (2, 1) shared_outs(%acc = %init) -> (tensor<3x4xf32>) {
    %chunk = arith.addi %i, %j : index
    %col = affine.apply #two(%chunk)
    %in = tensor.extract_slice %x[0, %col] [3, 2] [1, 1] : tensor<3x8xf32> to tensor<3x2xf32>
    %mine = tensor.extract_slice %acc[0, %chunk] [3, 1] [1, 1] : tensor<3x4xf32> to tensor<3xf32>
    %part = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
        ins(%in : tensor<3x2xf32>) outs(%mine : tensor<3xf32>) {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      linalg.yield %p : f32
    } -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %part into %acc[0, %chunk] [3, 1] [1, 1] : tensor<3xf32> into tensor<3x4xf32>
    }
  }
  %merged = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%partial : tensor<3x4xf32>) outs(%out : tensor<3xf32>) attrs = {__merge__} {
  ^bb0(%a: f32, %b: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<3xf32>
  return %merged : tensor<3xf32>
}

transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %loop = transform.structured.match ops{["scf.forall"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %init = transform.structured.match ops{["linalg.fill"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %merge = transform.structured.match attributes {__merge__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %new_loop, %new_init = transform.structured.shared_output_to_distributed_style %loop, %init, %merge
}
