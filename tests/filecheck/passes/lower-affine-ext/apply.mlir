// affine.apply: the expression as index arithmetic, dimensions then
// symbols. mod, floordiv and ceildiv by a positive constant use upstream's
// expansions, exact for negative dividends (-7 mod 3 = 2, -7 floordiv 3 =
// -3, -7 ceildiv 3 = -2); by a negative constant, a truncating division
// corrected by the signs of the remainder and the divisor (floor and ceil
// division, and a modulo with the divisor's sign, as MLIR folds them).
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

// Signed inputs (random in [-4, 4]) make negative dividends.
func.func @positive_divisor(%a: i32) -> (index, index, index) {
  %x = arith.index_cast %a : i32 to index
  %m = affine.apply affine_map<(d0) -> (d0 mod 3)>(%x)
  %f = affine.apply affine_map<(d0) -> (d0 floordiv 3)>(%x)
  %c = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%x)
  return %m, %f, %c : index, index, index
}
// CHECK-LABEL: func.func @positive_divisor(%a: i32) -> (index, index, index)
// CHECK-NEXT:    %x = arith.index_cast %a : i32 to index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remsi %x, %[[C3]] : index
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %[[C0]] : index
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[REM]], %[[C3]] : index
// CHECK-NEXT:    %[[MOD:.*]] = arith.select %[[NEG]], %[[UP]], %[[REM]] : index
// CHECK-NEXT:    %[[D3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[M1:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[XNEG:.*]] = arith.cmpi slt, %x, %[[Z]] : index
// CHECK-NEXT:    %[[FLIP:.*]] = arith.subi %[[M1]], %x : index
// CHECK-NEXT:    %[[DIVIDEND:.*]] = arith.select %[[XNEG]], %[[FLIP]], %x : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %[[DIVIDEND]], %[[D3]] : index
// CHECK-NEXT:    %[[UNFLIP:.*]] = arith.subi %[[M1]], %[[Q]] : index
// CHECK-NEXT:    %[[FLOOR:.*]] = arith.select %[[XNEG]], %[[UNFLIP]], %[[Q]] : index
// CHECK-NEXT:    %[[E3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[E0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[E1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[NP:.*]] = arith.cmpi sle, %x, %[[E0]] : index
// CHECK-NEXT:    %[[NX:.*]] = arith.subi %[[E0]], %x : index
// CHECK-NEXT:    %[[DX:.*]] = arith.subi %x, %[[E1]] : index
// CHECK-NEXT:    %[[CD:.*]] = arith.select %[[NP]], %[[NX]], %[[DX]] : index
// CHECK-NEXT:    %[[CQ:.*]] = arith.divsi %[[CD]], %[[E3]] : index
// CHECK-NEXT:    %[[NQ:.*]] = arith.subi %[[E0]], %[[CQ]] : index
// CHECK-NEXT:    %[[IQ:.*]] = arith.addi %[[CQ]], %[[E1]] : index
// CHECK-NEXT:    %[[CEIL:.*]] = arith.select %[[NP]], %[[NQ]], %[[IQ]] : index
// CHECK-NEXT:    func.return %[[MOD]], %[[FLOOR]], %[[CEIL]] : index, index, index

func.func @negative_divisor(%a: i32) -> (index, index, index) {
  %x = arith.index_cast %a : i32 to index
  %m = affine.apply affine_map<(d0) -> (d0 mod -3)>(%x)
  %f = affine.apply affine_map<(d0) -> (d0 floordiv -2)>(%x)
  %c = affine.apply affine_map<(d0) -> (d0 ceildiv -2)>(%x)
  return %m, %f, %c : index, index, index
}
// CHECK-LABEL: func.func @negative_divisor(
// CHECK:         %[[D:.*]] = arith.constant -3 : index
// CHECK:         %[[R:.*]] = arith.remsi %x, %[[D]] : index
// CHECK-NEXT:    %[[INEXACT:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : index
// CHECK-NEXT:    %[[RNEG:.*]] = arith.cmpi slt, %[[R]], %{{.*}} : index
// CHECK-NEXT:    %[[DNEG:.*]] = arith.cmpi slt, %[[D]], %{{.*}} : index
// CHECK-NEXT:    %[[DIFF:.*]] = arith.cmpi ne, %[[RNEG]], %[[DNEG]] : i1
// CHECK-NEXT:    %[[FIX:.*]] = arith.andi %[[INEXACT]], %[[DIFF]] : i1
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[R]], %[[D]] : index
// CHECK-NEXT:    arith.select %[[FIX]], %[[SUM]], %[[R]] : index
// CHECK:         arith.cmpi ne, %{{.*}}, %{{.*}} : i1
// CHECK:         arith.divsi %x, %{{.*}} : index
// CHECK-NEXT:    arith.subi
// CHECK-NEXT:    arith.select
// CHECK:         arith.cmpi eq, %{{.*}}, %{{.*}} : i1
// CHECK:         arith.divsi %x, %{{.*}} : index
// CHECK-NEXT:    arith.addi
// CHECK-NEXT:    arith.select

// Dimensions and symbols; a - b is arith.subi, a constant term arith.addi.
func.func @dims_and_symbols(%a: i32, %b: i32, %s: index) -> index {
  %x = arith.index_cast %a : i32 to index
  %y = arith.index_cast %b : i32 to index
  %r = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 4 - d1 + s0 * 3 + 7)>(%x, %y)[%s]
  return %r : index
}
// CHECK-LABEL: func.func @dims_and_symbols(
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:    %[[A:.*]] = arith.muli %x, %[[C4]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.subi %[[A]], %y : index
// CHECK-NEXT:    %[[C:.*]] = arith.muli %s, %[[C3]] : index
// CHECK-NEXT:    %[[D:.*]] = arith.addi %[[B]], %[[C]] : index
// CHECK-NEXT:    %[[E:.*]] = arith.addi %[[D]], %[[C7]] : index
// CHECK-NEXT:    func.return %[[E]] : index

// Nested expressions, symbols only.
func.func @nested(%a: i32, %b: index) -> index {
  %x = arith.index_cast %a : i32 to index
  %r = affine.apply affine_map<()[s0, s1] -> ((s0 * 5 + s1) floordiv 4 + (s0 - 1) mod 2)>()[%x, %b]
  return %r : index
}
// CHECK-LABEL: func.func @nested(
// CHECK-NOT:     affine.apply
// CHECK:         arith.divsi
// CHECK:         arith.remsi
// CHECK:         func.return
