// Round trip of ccl.all_reduce in ByteIR's forms (generic syntax, as ByteIR
// declares no custom one): replica groups present or absent, unique_id,
// synchronous, dynamic replica groups, and newer ByteIR's options written
// as properties (read as the same attributes).
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: linalg-ext-opt %s | filecheck %s

// CHECK-LABEL: func.func @all_reduce(
// CHECK:         %{{.*}} = "ccl.all_reduce"(%{{.*}}) {reduction = "sum", replica_groups = {{\[\[}}0 : i64, 2 : i64, 4 : i64, 6 : i64], [1 : i64, 3 : i64, 5 : i64, 7 : i64]], unique_id = 0 : i64, synchronous = true} : (tensor<10xf32>) -> tensor<10xf32>
func.func @all_reduce(%arg0: tensor<10xf32>) -> tensor<10xf32> {
  %0 = "ccl.all_reduce"(%arg0)
    { reduction = "sum", replica_groups = [[0, 2, 4, 6], [1, 3, 5, 7]], unique_id = 0 : i64, synchronous = true} : (tensor<10xf32>) -> tensor<10xf32>
  func.return %0 : tensor<10xf32>
}

// CHECK-LABEL: func.func @no_replica_groups(
// CHECK:         "ccl.all_reduce"(%{{.*}}) {reduction = "max", unique_id = 3 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
func.func @no_replica_groups(%arg0: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "max", unique_id = 3 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// ByteIR's verifier lets two groups share a replica.
// CHECK-LABEL: func.func @groups_share_a_replica(
// CHECK:         "ccl.all_reduce"(%{{.*}}) {reduction = "min", replica_groups = {{\[\[}}0 : i64, 2 : i64], [0 : i64, 3 : i64]]} : (tensor<4xf16>) -> tensor<4xf16>
func.func @groups_share_a_replica(%arg0: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "ccl.all_reduce"(%arg0) { reduction = "min", replica_groups = [[0, 2], [0, 3]]} : (tensor<4xf16>) -> tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @dynamic_replica_groups(
// CHECK:         "ccl.all_reduce"(%{{.*}}, %{{.*}}) {reduction = "avg"} : (tensor<8xf32>, tensor<2x4xi64>) -> tensor<8xf32>
func.func @dynamic_replica_groups(%arg0: tensor<8xf32>, %groups: tensor<2x4xi64>) -> tensor<8xf32> {
  %0 = "ccl.all_reduce"(%arg0, %groups) { reduction = "avg"} : (tensor<8xf32>, tensor<2x4xi64>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @as_properties(
// CHECK:         "ccl.all_reduce"(%{{.*}}) {reduction = "prod", replica_groups = {{\[\[}}2 : i64, 3 : i64]], synchronous = false} : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
func.func @as_properties(%arg0: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %0 = "ccl.all_reduce"(%arg0) <{reduction = "prod", replica_groups = [[2, 3]], synchronous = false}> : (tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
