// affine.for: scf.for from the lower bound to the upper bound, with the
// step as a constant; its body moved, affine.yield becoming scf.yield.
// Bounds here are constants: xDSL 0.74's interpreter runs affine.for with
// constant bounds and no iter_args only.
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

func.func @constant_bounds(%a: memref<8xf32>, %b: memref<8xf32>) {
  affine.for %i = 1 to 8 step 3 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %b[%i] : memref<8xf32>
  }
  return
}
// CHECK-LABEL: func.func @constant_bounds(
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[UB:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[ST:.*]] = arith.constant 3 : index
// CHECK-NEXT:    scf.for %i = %[[LB]] to %[[UB]] step %[[ST]] {
// CHECK-NEXT:      %v = memref.load %a[%i] : memref<8xf32>
// CHECK-NEXT:      %w = arith.addf %v, %v : f32
// CHECK-NEXT:      memref.store %w, %b[%i] : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

func.func @nest(%a: memref<4x6xi32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 step 2 {
      %v = memref.load %a[%i, %j] : memref<4x6xi32>
      %k = affine.apply affine_map<(d0) -> (d0 + 1)>(%j)
      %w = arith.addi %v, %v : i32
      memref.store %w, %a[%i, %k] : memref<4x6xi32>
    }
  }
  return
}
// CHECK-LABEL: func.func @nest(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      %[[D0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[D6:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[D2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      scf.for %j = %[[D0]] to %[[D6]] step %[[D2]] {
// CHECK-NEXT:        %v = memref.load %a[%i, %j] : memref<4x6xi32>
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:        %k = arith.addi %j, %[[ONE]] : index
// CHECK-NEXT:        %w = arith.addi %v, %v : i32
// CHECK-NEXT:        memref.store %w, %a[%i, %k] : memref<4x6xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
