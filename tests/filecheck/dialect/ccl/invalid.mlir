// Every verifier rule of ccl.all_reduce, each with its message (ByteIR's
// messages where ByteIR has the rule).
// RUN: xdsl-opt --split-input-file --verify-diagnostics --parsing-diagnostics %s | filecheck %s

func.func @both_dynamic_and_static(%arg0: tensor<10xf32>, %arg1: tensor<2x4xi32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0, %arg1) { reduction = "sum", replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]]} : (tensor<10xf32>, tensor<2x4xi32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op dynamic_replica_groups and replica_groups can't exist simultaneously

// -----

func.func @dynamic_rank(%arg0: tensor<10xf32>, %arg1: tensor<2x4x5xi32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0, %arg1) { reduction = "sum" } : (tensor<10xf32>, tensor<2x4x5xi32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op dynamic_replica_groups's rank should equal to 2

// -----

func.func @dynamic_element_type(%arg0: tensor<10xf32>, %arg1: tensor<2x4xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0, %arg1) { reduction = "sum" } : (tensor<10xf32>, tensor<2x4xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op dynamic_replica_groups's element type should be index or integer

// -----

func.func @duplicated_id(%arg0: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "sum", replica_groups = [[0, 2, 0, 6], [1, 3, 5, 7]]} : (tensor<10xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op replica id #0 seen more than once

// -----

func.func @unknown_reduction(%arg0: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "mean" } : (tensor<10xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op unknown reduction str: mean

// -----

func.func @result_type(%arg0: tensor<10xf32>) -> tensor<10xf64> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "sum" } : (tensor<10xf32>) -> tensor<10xf64>
  func.return %0 : tensor<10xf64>
}
// CHECK: 'ccl.all_reduce' op expects the result type tensor<10xf64> to be the type of src tensor<10xf32>

// -----

func.func @groups_of_integers(%arg0: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "sum", replica_groups = [0, 1] } : (tensor<10xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: 'ccl.all_reduce' op expects replica_groups to be a list of lists of integers

// -----

func.func @missing_reduction(%arg0: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}
// CHECK: attribute 'reduction' expected in operation 'ccl.all_reduce'
