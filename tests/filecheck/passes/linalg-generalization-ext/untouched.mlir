// What is not a named Linalg structured op is left as it is: a generic and
// the linalg_ext ops (linalg.softmax too: see test_generalization_ext.py, as
// the JIT this directory's outputs are compiled with has no lowering of it).
// Named ops nested in other ops' regions are generalized too.
// RUN: xdsl-opt %s -p linalg-generalization-ext | filecheck %s

// CHECK-LABEL: func.func @left_alone
// CHECK-NEXT:    %g = linalg.generic
// CHECK:         %d = linalg_ext.diag ins(%v : tensor<3xf32>) outs(%e : tensor<3x3xf32>) : tensor<3x3xf32>
func.func @left_alone(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>, %v: tensor<3xf32>, %e: tensor<3x3xf32>) -> (tensor<2x3xf32>, tensor<3x3xf32>) {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x3xf32>
  %d = linalg_ext.diag ins(%v : tensor<3xf32>) outs(%e : tensor<3x3xf32>) : tensor<3x3xf32>
  return %g, %d : tensor<2x3xf32>, tensor<3x3xf32>
}

// CHECK-LABEL: func.func @in_a_loop
// CHECK:         scf.for
// CHECK-NEXT:      %{{.*}} = linalg.generic
// CHECK:             arith.addf
// CHECK-NOT:     linalg.add
func.func @in_a_loop(%x: tensor<3xf32>, %acc: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %acc) -> (tensor<3xf32>) {
    %n = linalg.add ins(%a, %x : tensor<3xf32>, tensor<3xf32>) outs(%a : tensor<3xf32>) -> tensor<3xf32>
    scf.yield %n : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
