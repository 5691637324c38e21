// mlir-opt-22's custom forms read back by us, and ours read by mlir-opt-22
// (upstream_output.mlir has the forms one by one).
// REQUIRES: mlir-opt-22
// RUN: mlir-opt-22 %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s | mlir-opt-22 | filecheck %s --check-prefix=UPSTREAM

func.func @forms(%a: memref<4xf32>, %b: memref<?xf32>, %x: f32, %k: i32, %i: index, %s: index) -> (f32, index, index) {
  memref.copy %a, %b : memref<4xf32> to memref<?xf32>
  %r = arith.remf %x, %x : f32
  %n = arith.index_castui %k : i32 to index
  %p = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%i)[%s]
  return %r, %n, %p : f32, index, index
}
// CHECK-LABEL: func.func @forms
// CHECK-NEXT:    "memref.copy"(%{{.*}}, %{{.*}}) : (memref<4xf32>, memref<?xf32>) -> ()
// CHECK-NEXT:    %{{.*}} = arith.remf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT:    %{{.*}} = affine.apply affine_map<(d0)[s0] -> ((d0 * s0))> (%{{.*}})[%{{.*}}]
// UPSTREAM-LABEL: func.func @forms
// UPSTREAM-NEXT:    memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<?xf32>
// UPSTREAM-NEXT:    arith.remf
// UPSTREAM-NEXT:    arith.index_castui
// UPSTREAM-NEXT:    affine.apply #map(%{{.*}})[%{{.*}}]

func.func @two_reductions(%m: memref<4xf32>, %n: index) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum, %count = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero, %c0) -> (f32, index) {
    %v = memref.load %m[%i] : memref<4xf32>
    scf.reduce(%v, %c1 : f32, index) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: index, %b: index):
      %s = arith.addi %a, %b : index
      scf.reduce.return %s : index
    }
  }
  return %sum, %count : f32, index
}
// CHECK-LABEL: func.func @two_reductions
// CHECK:         "scf.parallel"
// CHECK:           scf.reduce(%{{.*}}, %{{.*}} : f32, index) {
// CHECK:             scf.reduce.return %{{.*}} : f32
// CHECK-NEXT:      }, {
// CHECK:             scf.reduce.return %{{.*}} : index
// UPSTREAM-LABEL: func.func @two_reductions
// UPSTREAM:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init (%{{.*}}, %{{.*}}) -> (f32, index) {
// UPSTREAM:           scf.reduce(%{{.*}}, %{{.*}} : f32, index) {
// UPSTREAM:           }, {
