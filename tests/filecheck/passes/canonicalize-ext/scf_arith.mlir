// Upstream `--canonicalize` folds on scf and index arithmetic that xDSL
// 0.74's canonicalization lacks (or makes with its own patterns, run here).
// RUN: xdsl-opt %s -p canonicalize-ext | filecheck %s

// A loop with no iteration is its inits; an iter_arg yielded unchanged is
// its init, and leaves the loop; a loop of one iteration is its body.
// CHECK-LABEL: func.func @loops
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:       %[[R:.*]] = scf.for %{{.*}} = %[[C0]] to %n step %[[C1]] iter_args(%[[B:.*]] = %x) -> (tensor<4xf32>) {
// CHECK-NEXT:    %[[V:.*]] = tensor.insert %[[ONE]] into %[[B]][%[[C0]]] : tensor<4xf32>
// CHECK-NEXT:    scf.yield %[[V]] : tensor<4xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[S:.*]] = tensor.insert %[[ONE]] into %x[%[[C0]]] : tensor<4xf32>
// CHECK-NEXT:  func.return %x, %x, %[[R]], %[[S]]
func.func @loops(%x: tensor<4xf32>, %n: index) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %r0 = scf.for %i = %c4 to %c0 step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    %v = tensor.insert %two into %a[%i] : tensor<4xf32>
    scf.yield %v : tensor<4xf32>
  }
  %r1:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (tensor<4xf32>, tensor<4xf32>) {
    %one = arith.constant 1.0 : f32
    %v = tensor.insert %one into %b[%c0] : tensor<4xf32>
    scf.yield %a, %v : tensor<4xf32>, tensor<4xf32>
  }
  %r2 = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    %one = arith.constant 1.0 : f32
    %v = tensor.insert %one into %a[%i] : tensor<4xf32>
    scf.yield %v : tensor<4xf32>
  }
  return %r0, %r1#0, %r1#1, %r2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// A constant condition picks a branch; a result both branches yield is
// that value.
// CHECK-LABEL: func.func @ifs
// CHECK-NEXT:  func.return %x, %x
func.func @ifs(%c: i1, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = arith.constant true
  %r = scf.if %t -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %y : tensor<4xf32>
  }
  %s = scf.if %c -> tensor<4xf32> {
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}

// Constant index arithmetic folds; what cancels goes.
// CHECK-LABEL: func.func @index_math
// CHECK-DAG:   %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:   %[[C10:.*]] = arith.constant 10 : index
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[B:.*]] = arith.addi %n, %[[C6]] : index
// CHECK:       func.return %[[B]], %[[C10]], %[[C0]], %n, %n
func.func @index_math(%n: index, %m: index) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = arith.muli %c2, %c3 : index
  %b = arith.addi %a, %n : index
  %z = arith.addi %n, %c0 : index
  %p = arith.muli %z, %c3 : index
  %q = arith.subi %p, %p : index
  %r = arith.addi %b, %q : index
  %ds = affine.apply affine_map<()[s0] -> (s0 * 2 + 4)>()[%c3]
  %s = arith.addi %n, %m : index
  %t = arith.subi %s, %m : index
  %d = arith.subi %n, %m : index
  %u = arith.addi %d, %m : index
  return %r, %ds, %q, %t, %u : index, index, index, index, index
}

// An scf.if that only chooses between values is an arith.select; an
// affine.min of one result is an affine.apply (here the identity: %n).
// CHECK-LABEL: func.func @selects
// CHECK-NEXT:  %[[S:.*]] = arith.select %c, %x, %y : tensor<4xf32>
// CHECK-NEXT:  %[[T:.*]] = arith.select %c, %n, %m : index
// CHECK-NEXT:  func.return %[[S]], %[[T]], %n
func.func @selects(%c: i1, %x: tensor<4xf32>, %y: tensor<4xf32>, %n: index, %m: index) -> (tensor<4xf32>, index, index) {
  %r:2 = scf.if %c -> (tensor<4xf32>, index) {
    scf.yield %x, %n : tensor<4xf32>, index
  } else {
    scf.yield %y, %m : tensor<4xf32>, index
  }
  %a = affine.min affine_map<(d0) -> (d0)>(%n)
  return %r#0, %r#1, %a : tensor<4xf32>, index, index
}

// Float operands that change nothing under IEEE arithmetic fold; `x + 0.0`
// (`-0.0 + 0.0` is `+0.0`) and `maxnumf(x, -inf)` (`-inf` for a NaN) stay.
// CHECK-LABEL: func.func @float_identities
// CHECK:       %[[A:.*]] = arith.addf %x, %{{.*}} : f32
// CHECK-NEXT:  %[[B:.*]] = arith.maxnumf %x, %{{.*}} : f32
// CHECK-NEXT:  func.return %x, %x, %x, %[[A]], %[[B]]
func.func @float_identities(%x: f32) -> (f32, f32, f32, f32, f32) {
  %inf = arith.constant 0x7f800000 : f32
  %ninf = arith.constant 0xff800000 : f32
  %negzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %a = arith.minimumf %inf, %x : f32
  %b = arith.addf %negzero, %x : f32
  %c = arith.divf %x, %one : f32
  %d = arith.addf %x, %zero : f32
  %e = arith.maxnumf %x, %ninf : f32
  return %a, %b, %c, %d, %e : f32, f32, f32, f32, f32
}
