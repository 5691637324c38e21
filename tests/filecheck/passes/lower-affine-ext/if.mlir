// affine.if: scf.if on the conjunction of the set's constraints, each
// `expr >= 0` an arith.cmpi sge and `expr == 0` an arith.cmpi eq against 0;
// regions moved, affine.yield becoming scf.yield. xDSL 0.74 parses
// affine.if in the generic form only.
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

func.func @with_results(%a: i32, %s: index) -> index {
  %x = arith.index_cast %a : i32 to index
  %r = "affine.if"(%x, %s) ({
    %t = affine.apply affine_map<(d0) -> (d0 * 2)>(%x)
    affine.yield %t : index
  }, {
    affine.yield %s : index
  }) {condition = affine_set<(d0)[s0] : (d0 - 1 >= 0, s0 - d0 - 1 >= 0)>} : (index, index) -> index
  return %r : index
}
// CHECK-LABEL: func.func @with_results(
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[A:.*]] = arith.addi %x, %{{.*}} : index
// CHECK-NEXT:    %[[GE1:.*]] = arith.cmpi sge, %[[A]], %[[C0]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.subi %s, %x : index
// CHECK-NEXT:    %[[B1:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK-NEXT:    %[[GE2:.*]] = arith.cmpi sge, %[[B1]], %[[C0]] : index
// CHECK-NEXT:    %[[BOTH:.*]] = arith.andi %[[GE1]], %[[GE2]] : i1
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[BOTH]] -> (index) {
// CHECK:           %t = arith.muli %x, %{{.*}} : index
// CHECK-NEXT:      scf.yield %t : index
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %s : index
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : index

// An equality, no results, no else region.
func.func @store_on_diagonal(%m: memref<4x4xi32>, %v: i32) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 4 {
      "affine.if"(%i, %j) ({
        memref.store %v, %m[%i, %j] : memref<4x4xi32>
        affine.yield
      }, {
      }) {condition = affine_set<(d0, d1) : (d0 - d1 == 0)>} : (index, index) -> ()
    }
  }
  return
}
// CHECK-LABEL: func.func @store_on_diagonal(
// CHECK:         %[[D:.*]] = arith.subi %i, %j : index
// CHECK-NEXT:    %[[EQ:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[EQ]] {
// CHECK-NEXT:      memref.store %v, %m[%i, %j] : memref<4x4xi32>
// CHECK-NEXT:    }
