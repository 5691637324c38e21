// Upstream's linalg.fill_rng_2d (OpDSL), which xDSL 0.74 lacks:
// linalg_ext/compat/linalg_fill_rng.py. Round trip (custom and generic
// form, its hidden body shown in the generic form as mlir-opt-22 shows it),
// linalg-generalization-ext (upstream's body: two steps of a wrapping i32
// linear congruential generator from the loop indices and the seed, scaled
// in f64, converted to the output's type), lowered to loops (the indices
// become the loops' induction variables) and tiled (the tile is a generic
// whose indices are shifted by the tile's offsets).
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: linalg-ext-opt %s -p linalg-generalization-ext | filecheck %s --check-prefix=GEN
// RUN: linalg-ext-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true},convert-linalg-to-loops-ext' | filecheck %s --check-prefix=LOOPS
// RUN: linalg-ext-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,8}' | filecheck %s --check-prefix=TILE

// CHECK-LABEL: func.func @on_tensor
// GENERIC-LABEL: sym_name = "on_tensor"
// GEN-LABEL: func.func @on_tensor
// LOOPS-LABEL: func.func @on_tensor
// TILE-LABEL: func.func @on_tensor
func.func @on_tensor(%lo: f64, %hi: f64, %seed: i32, %o: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %r = linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
// CHECK-NEXT: %r = linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : tensor<16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT: func.return %r : tensor<16x32xf32>

// GENERIC:      "linalg.fill_rng_2d"(%lo, %hi, %seed, %o) <{operandSegmentSizes = array<i32: 3, 1>}> ({
// GENERIC-NEXT: ^{{.*}}(%[[MIN:.*]]: f64, %[[MAX:.*]]: f64, %[[SEED:.*]]: i32, %{{.*}}: f32):
// GENERIC-NEXT:   %[[C:.*]] = "arith.constant"() <{value = 2147483647 : i64}> : () -> i64
// GENERIC-NEXT:   %{{.*}} = "arith.sitofp"(%[[C]]) : (i64) -> f64
// GENERIC-NEXT:   %[[J:.*]] = "linalg.index"() <{dim = 1 : i64}> : () -> index
// GENERIC:        %[[I:.*]] = "linalg.index"() <{dim = 0 : i64}> : () -> index
// GENERIC:        "linalg.yield"
// GENERIC-NEXT: }) {linalg.memoized_indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]} : (f64, f64, i32, tensor<16x32xf32>) -> tensor<16x32xf32>

// GEN:      %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : tensor<16x32xf32>) {
// GEN-NEXT: ^{{.*}}(%[[MIN:.*]]: f64, %[[MAX:.*]]: f64, %[[SEED:.*]]: i32, %{{.*}}: f32):
// GEN-NEXT:   %[[BIG:.*]] = arith.constant 2147483647 : i64
// GEN-NEXT:   %[[OFFSET:.*]] = arith.sitofp %[[BIG]] : i64 to f64
// GEN-NEXT:   %[[J:.*]] = linalg.index 1 : index
// GEN-NEXT:   %[[J32:.*]] = arith.index_cast %[[J]] : index to i32
// GEN-NEXT:   %[[I:.*]] = linalg.index 0 : index
// GEN-NEXT:   %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// GEN-NEXT:   %[[S:.*]] = arith.addi %[[I32]], %[[SEED]] : i32
// GEN-NEXT:   %[[M64:.*]] = arith.constant 1103515245 : i64
// GEN-NEXT:   %[[M:.*]] = arith.trunci %[[M64]] : i64 to i32
// GEN-NEXT:   %[[P:.*]] = arith.muli %[[S]], %[[M]] : i32
// GEN-NEXT:   %[[A64:.*]] = arith.constant 12345 : i64
// GEN-NEXT:   %[[A:.*]] = arith.trunci %[[A64]] : i64 to i32
// GEN-NEXT:   %[[R1:.*]] = arith.addi %[[P]], %[[A]] : i32
// GEN-NEXT:   %[[T:.*]] = arith.addi %[[J32]], %[[R1]] : i32
// GEN-NEXT:   %[[M64B:.*]] = arith.constant 1103515245 : i64
// GEN-NEXT:   %[[MB:.*]] = arith.trunci %[[M64B]] : i64 to i32
// GEN-NEXT:   %[[P2:.*]] = arith.muli %[[T]], %[[MB]] : i32
// GEN-NEXT:   %[[A64B:.*]] = arith.constant 12345 : i64
// GEN-NEXT:   %[[AB:.*]] = arith.trunci %[[A64B]] : i64 to i32
// GEN-NEXT:   %[[R2:.*]] = arith.addi %[[P2]], %[[AB]] : i32
// GEN-NEXT:   %[[RF:.*]] = arith.sitofp %[[R2]] : i32 to f64
// GEN-NEXT:   %[[SHIFTED:.*]] = arith.addf %[[OFFSET]], %[[RF]] : f64
// GEN-NEXT:   %[[SPAN:.*]] = arith.subf %[[MAX]], %[[MIN]] : f64
// GEN-NEXT:   %[[SCALE:.*]] = arith.constant 2.3283063999999999e-10 : f64
// GEN-NEXT:   %[[STEP:.*]] = arith.mulf %[[SPAN]], %[[SCALE]] : f64
// GEN-NEXT:   %[[X:.*]] = arith.mulf %[[SHIFTED]], %[[STEP]] : f64
// GEN-NEXT:   %[[V:.*]] = arith.addf %[[X]], %[[MIN]] : f64
// GEN-NEXT:   %[[F:.*]] = arith.truncf %[[V]] : f64 to f32
// GEN-NEXT:   linalg.yield %[[F]] : f32
// GEN-NEXT: } -> tensor<16x32xf32>

// LOOPS:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// LOOPS-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// LOOPS:          arith.index_cast %[[J]] : index to i32
// LOOPS-NEXT:     arith.index_cast %[[I]] : index to i32
// LOOPS:          %[[F:.*]] = arith.truncf %{{.*}} : f64 to f32
// LOOPS-NEXT:     memref.store %[[F]], %o[%[[I]], %[[J]]]

// TILE:      scf.for %[[I:.*]] = {{.*}} iter_args
// TILE:        scf.for %[[J:.*]] = {{.*}} iter_args
// TILE:          %[[SLICE:.*]] = tensor.extract_slice
// TILE-NEXT:     linalg.generic {{.*}} ins(%lo, %hi, %seed : f64, f64, i32) outs(%[[SLICE]] : tensor<4x8xf32>)
// TILE:            %[[TJ:.*]] = linalg.index 1 : index
// TILE-NEXT:       %[[SJ:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[TJ]], %[[J]])
// TILE-NEXT:       arith.index_cast %[[SJ]] : index to i32
// TILE-NEXT:       %[[TI:.*]] = linalg.index 0 : index
// TILE-NEXT:       %[[SI:.*]] = affine.apply affine_map<(d0, d1) -> ((d0 + d1))> (%[[TI]], %[[I]])
// TILE-NEXT:       arith.index_cast %[[SI]] : index to i32
// TILE-NOT:    linalg.fill_rng_2d

// CHECK-LABEL: func.func @on_memref
// GEN-LABEL: func.func @on_memref
// LOOPS-LABEL: func.func @on_memref
// TILE-LABEL: func.func @on_memref
func.func @on_memref(%lo: f64, %hi: f64, %seed: i32, %o: memref<4x8xi32>) {
  linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : memref<4x8xi32>)
  return
}
// CHECK-NEXT: linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : memref<4x8xi32>)
// Tiling works on tensors: the op on a memref is left as it is.
// TILE-NEXT: linalg.fill_rng_2d ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : memref<4x8xi32>)

// GEN:      linalg.generic {{.*}} ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : memref<4x8xi32>) {
// GEN:        %[[V:.*]] = arith.fptosi %{{.*}} : f64 to i32
// GEN-NEXT:   linalg.yield %[[V]] : i32

// LOOPS:      %[[V:.*]] = arith.fptosi %{{.*}} : f64 to i32
// LOOPS-NEXT: memref.store %[[V]], %o[%{{.*}}, %{{.*}}] : memref<4x8xi32>
