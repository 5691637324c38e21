// What mlir-opt-22 prints for Linalg, read back and printed as it prints it:
// named ops with discardable attributes, linalg.matmul with indexing_maps,
// transpose/broadcast/reduce/map with attributes after them, linalg.softmax,
// linalg.elementwise and a linalg.reduce with two inputs and two inits.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @named_with_attributes
// GENERIC-LABEL: sym_name = "named_with_attributes"
func.func @named_with_attributes(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %v: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.add {my.tag = 7 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.exp {my.tag = 7 : i64} ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.max {b = 1 : i64, a = 2 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.fill {my.tag = 7 : i64} ins(%v : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.div {my.tag = 7 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-NEXT: %0 = linalg.add {my.tag = 7 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = linalg.exp {my.tag = 7 : i64} ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = linalg.max {a = 2 : i64, b = 1 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %3 = linalg.fill {my.tag = 7 : i64} ins(%v : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %4 = linalg.div {my.tag = 7 : i64} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC:      "linalg.add"(%a, %b, %a) <{operandSegmentSizes = array<i32: 2, 1>}> ({
// GENERIC:      }) {my.tag = 7 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>

// The matmul's maps are printed when they are not the default; the body
// accumulates into the output first, as MLIR builds it.
// CHECK-LABEL: func.func @matmul_maps
// GENERIC-LABEL: sym_name = "matmul_maps"
func.func @matmul_maps(%a: tensor<8x4xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>, %d: tensor<4x8xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {my.tag = 7 : i64} ins(%a, %b : tensor<8x4xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%d, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<4x5xf32>
}
// CHECK-NEXT: %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {my.tag = 7 : i64} ins(%a, %b : tensor<8x4xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: %1 = linalg.matmul ins(%d, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
// GENERIC:      "linalg.matmul"(%a, %b, %c) <{{.*}}indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]{{.*}}}> ({
// GENERIC-NEXT: ^bb0(%[[A:[0-9]+]]: f32, %[[B:[0-9]+]]: f32, %[[C:[0-9]+]]: f32):
// GENERIC-NEXT:   %[[P:[0-9]+]] = "arith.mulf"(%[[A]], %[[B]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   %[[S:[0-9]+]] = "arith.addf"(%[[C]], %[[P]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC-NEXT:   "linalg.yield"(%[[S]]) : (f32) -> ()
// GENERIC-NEXT: }) {my.tag = 7 : i64} : (tensor<8x4xf32>, tensor<8x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>

// MLIR prints the attributes after the permutation or dimensions, two
// spaces after them.
// CHECK-LABEL: func.func @data_movement
// GENERIC-LABEL: sym_name = "data_movement"
func.func @data_movement(%a: tensor<4x8xf32>, %t: tensor<8x4xf32>, %r: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>) {
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0] {my.tag = 7 : i64}
  %1 = linalg.broadcast ins(%r : tensor<4xf32>) outs(%a : tensor<4x8xf32>) dimensions = [1] {my.tag = 7 : i64}
  %2 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1] {my.tag = 7 : i64}
  %3 = linalg.map { arith.negf } ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {my.tag = 7 : i64}
  return %0, %1, %2, %3 : tensor<8x4xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4x8xf32>
}
// CHECK-NEXT: %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]  {my.tag = 7 : i64}
// CHECK-NEXT: %1 = linalg.broadcast ins(%r : tensor<4xf32>) outs(%a : tensor<4x8xf32>) dimensions = [1]  {my.tag = 7 : i64}
// CHECK-NEXT: %2 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]  {my.tag = 7 : i64}
// CHECK-NEXT: %3 = linalg.map { arith.negf } ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {my.tag = 7 : i64}
// GENERIC:      "linalg.transpose"(%a, %t) <{permutation = array<i64: 1, 0>}> ({
// GENERIC:      }) {my.tag = 7 : i64} : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
// GENERIC:      "linalg.reduce"(%a, %r) <{dimensions = array<i64: 1>}> ({
// GENERIC-NEXT: ^bb0(%[[IN:[0-9]+]]: f32, %[[INIT:[0-9]+]]: f32):
// GENERIC-NEXT:   %{{[0-9]+}} = "arith.addf"(%[[INIT]], %[[IN]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32

// CHECK-LABEL: func.func @softmax
// GENERIC-LABEL: sym_name = "softmax"
func.func @softmax(%x: tensor<2x16xf32>, %o: tensor<2x16xf32>, %m: memref<2x16xf32>, %n: memref<2x16xf32>) -> tensor<2x16xf32> {
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%o : tensor<2x16xf32>) -> tensor<2x16xf32>
  %1 = linalg.softmax {my.tag = 7 : i64} dimension(0) ins(%0 : tensor<2x16xf32>) outs(%o : tensor<2x16xf32>) -> tensor<2x16xf32>
  linalg.softmax dimension(1) ins(%m : memref<2x16xf32>) outs(%n : memref<2x16xf32>)
  return %1 : tensor<2x16xf32>
}
// CHECK-NEXT: %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%o : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: %1 = linalg.softmax {my.tag = 7 : i64} dimension(0) ins(%0 : tensor<2x16xf32>) outs(%o : tensor<2x16xf32>) -> tensor<2x16xf32>
// CHECK-NEXT: linalg.softmax dimension(1) ins(%m : memref<2x16xf32>) outs(%n : memref<2x16xf32>)
// GENERIC:      %0 = "linalg.softmax"(%x, %o) <{dimension = 1 : i64}> : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
// GENERIC-NEXT: %1 = "linalg.softmax"(%0, %o) <{dimension = 0 : i64}> {my.tag = 7 : i64} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
// GENERIC-NEXT: "linalg.softmax"(%m, %n) <{dimension = 1 : i64}> : (memref<2x16xf32>, memref<2x16xf32>) -> ()

// Default maps (identities over the output) are not printed.
// CHECK-LABEL: func.func @elementwise
// GENERIC-LABEL: sym_name = "elementwise"
func.func @elementwise(%a: tensor<4x8xf32>, %r: tensor<8xf32>, %t: tensor<8x4xf32>, %c: tensor<4x8xi1>, %i: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>) {
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %r : tensor<4x8xf32>, tensor<8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] {my.tag = 7 : i64} ins(%t : tensor<8x4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise kind=#linalg.elementwise_kind<reciprocal> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%c, %a, %2 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>
}
// CHECK-NEXT: %0 = linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %r : tensor<4x8xf32>, tensor<8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] {my.tag = 7 : i64} ins(%t : tensor<8x4xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %2 = linalg.elementwise kind=#linalg.elementwise_kind<reciprocal> ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %3 = linalg.elementwise kind=#linalg.elementwise_kind<select> ins(%c, %a, %2 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %4 = linalg.elementwise kind=#linalg.elementwise_kind<max_unsigned> ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
// GENERIC:      "linalg.elementwise"(%a, %r, %a) <{kind = #linalg.elementwise_kind<add>, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}}}> ({
// GENERIC-NEXT: ^bb0(%{{[0-9]+}}: f32, %{{[0-9]+}}: f32, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   "arith.addf"
// GENERIC:      "linalg.elementwise"(%a, %a) <{kind = #linalg.elementwise_kind<reciprocal>, indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}}}> ({
// GENERIC-NEXT: ^bb0(%[[X:[0-9]+]]: f32, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   %[[ONE:[0-9]+]] = "arith.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
// GENERIC-NEXT:   "arith.divf"(%[[ONE]], %[[X]])
// GENERIC:      "arith.select"
// GENERIC:      "arith.maxui"

// The combiner takes the inputs' elements, then the inits'.
// CHECK-LABEL: func.func @reduce_two
// GENERIC-LABEL: sym_name = "reduce_two"
func.func @reduce_two(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %r: tensor<4xf32>, %m: memref<4x8xf32>, %n: memref<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%r, %r : tensor<4xf32>, tensor<4xf32>) dimensions = [1]  {my.tag = 7 : i64}
    (%x: f32, %y: f32, %s: f32, %t: f32) {
      %p = arith.addf %x, %s : f32
      %q = arith.maximumf %y, %t : f32
      linalg.yield %p, %q : f32, f32
    }
  linalg.reduce ins(%m, %m : memref<4x8xf32>, memref<4x8xf32>) outs(%n, %n : memref<4xf32>, memref<4xf32>) dimensions = [1]
    (%x: f32, %y: f32, %s: f32, %t: f32) {
      linalg.yield %x, %y : f32, f32
    }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK-NEXT: %0, %1 = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%r, %r : tensor<4xf32>, tensor<4xf32>) dimensions = [1]  {my.tag = 7 : i64}
// CHECK-NEXT:   (%x: f32, %y: f32, %s: f32, %t: f32) {
// CHECK-NEXT:     %p = arith.addf %x, %s : f32
// CHECK-NEXT:     %q = arith.maximumf %y, %t : f32
// CHECK-NEXT:     linalg.yield %p, %q : f32, f32
// CHECK-NEXT:   }
// CHECK-NEXT: linalg.reduce ins(%m, %m : memref<4x8xf32>, memref<4x8xf32>) outs(%n, %n : memref<4xf32>, memref<4xf32>) dimensions = [1]
// GENERIC:      "linalg.reduce"(%a, %b, %r, %r) <{dimensions = array<i64: 1>}> ({
// GENERIC:      }) {my.tag = 7 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// GENERIC:      "linalg.reduce"(%m, %m, %n, %n) <{dimensions = array<i64: 1>}> ({
