// The named elementwise ops: each becomes the loops of its generic form,
// the body upstream's scalar op on the loaded elements (float and integer
// variants), on static and dynamic shapes.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

func.func @add(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.add ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @add(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @sub(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.sub ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @sub(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @mul(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.mul ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @mul(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @div(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.div ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @div(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @max(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.max ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @max(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @min(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.min ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @min(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @powf_op(%a: memref<3x4xf32>, %b: memref<3x4xf32>, %c: memref<3x4xf32>) {
  linalg.powf ins(%a, %b : memref<3x4xf32>, memref<3x4xf32>) outs(%c : memref<3x4xf32>)
  return
}
// CHECK-LABEL: func.func @powf_op(
// CHECK:         scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c4 step %c1 {
// CHECK-NEXT:        %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<3x4xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.powf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<3x4xf32>

func.func @exp(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.exp ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @exp(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @log(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.log ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @log(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.log %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @sqrt(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.sqrt ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @sqrt(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.sqrt %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @rsqrt(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.rsqrt ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @rsqrt(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.rsqrt %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @abs(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.abs ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @abs(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.absf %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @floor(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.floor ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @floor(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.floor %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @ceil(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.ceil ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @ceil(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.ceil %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @tanh(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.tanh ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @tanh(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @negf(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.negf ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @negf(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @reciprocal(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.reciprocal ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @reciprocal(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        %[[Z:.*]] = arith.divf %[[ONE]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

func.func @square(%a: memref<?xf32>, %c: memref<?xf32>) {
  linalg.square ins(%a : memref<?xf32>) outs(%c : memref<?xf32>)
  return
}
// CHECK-LABEL: func.func @square(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %dim = memref.dim %a, %c0 : memref<?xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %c0 to %dim step %c1 {
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:        %[[Z:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT:      memref.store %[[Z]], %c[%[[I]]] : memref<?xf32>

// Integer bodies: addi, subi, muli, divsi, maxsi, minsi; on i1 add is ori
// and mul andi (upstream's region builders).
func.func @integers(%a: memref<5xi32>, %b: memref<5xi32>, %c: memref<5xi32>, %p: memref<5xi1>, %q: memref<5xi1>, %r: memref<5xi1>) {
  linalg.add ins(%a, %b : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  linalg.sub ins(%c, %b : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  linalg.mul ins(%c, %a : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  linalg.max ins(%c, %a : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  linalg.min ins(%c, %b : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  linalg.add ins(%p, %q : memref<5xi1>, memref<5xi1>) outs(%r : memref<5xi1>)
  linalg.mul ins(%r, %q : memref<5xi1>, memref<5xi1>) outs(%p : memref<5xi1>)
  return
}
// CHECK-LABEL: func.func @integers(
// CHECK:         arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.subi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         arith.maxsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK:         arith.ori %{{.*}}, %{{.*}} : i1
// CHECK:         arith.andi %{{.*}}, %{{.*}} : i1

// Integer division by a value that may be zero is undefined: the divisor
// here is made non-zero first (|b| + 1).
func.func @integer_div(%a: memref<5xi32>, %b: memref<5xi32>, %c: memref<5xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%b : memref<5xi32>) {
  ^bb0(%x: i32):
    %one = arith.constant 1 : i32
    %abs = math.absi %x : i32
    %y = arith.addi %abs, %one : i32
    linalg.yield %y : i32
  }
  linalg.div ins(%a, %b : memref<5xi32>, memref<5xi32>) outs(%c : memref<5xi32>)
  return
}
// CHECK-LABEL: func.func @integer_div(
// CHECK:         math.absi
// CHECK:         %[[X:.*]] = memref.load %a[%[[I:.*]]] : memref<5xi32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %b[%[[I]]] : memref<5xi32>
// CHECK-NEXT:    %[[Z:.*]] = arith.divsi %[[X]], %[[Y]] : i32
// CHECK-NEXT:    memref.store %[[Z]], %c[%[[I]]] : memref<5xi32>

// linalg.select: a condition and two values.
func.func @select(%cond: memref<2x3xi1>, %a: memref<2x3xf32>, %b: memref<2x3xf32>, %c: memref<2x3xf32>) {
  linalg.select ins(%cond, %a, %b : memref<2x3xi1>, memref<2x3xf32>, memref<2x3xf32>) outs(%c : memref<2x3xf32>)
  return
}
// CHECK-LABEL: func.func @select(
// CHECK:         %[[C:.*]] = memref.load %cond[%[[I:.*]], %[[J:.*]]] : memref<2x3xi1>
// CHECK-NEXT:    %[[X:.*]] = memref.load %a[%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %b[%[[I]], %[[J]]] : memref<2x3xf32>
// CHECK-NEXT:    %[[Z:.*]] = arith.select %[[C]], %[[X]], %[[Y]] : f32
// CHECK-NEXT:    memref.store %[[Z]], %c[%[[I]], %[[J]]] : memref<2x3xf32>
