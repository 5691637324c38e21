// Round trip of affine.max: the map, then its dimension operands in
// parentheses and its symbol operands (if any) in brackets, right after the
// map as MLIR prints them. (Affine expressions are printed by xDSL, which
// brackets sub-expressions: `(s0 + 2)`; MLIR reads that back unchanged.)
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @affine_max
func.func @affine_max(%i: index, %n: index) -> (index, index, index, index) {
  %dims_and_symbols = affine.max affine_map<(d0)[s0] -> (d0, s0 + 2)>(%i)[%n]
  %symbols_only = affine.max affine_map<()[s0] -> (s0, 4)>()[%n]
  %dims_only = affine.max affine_map<(d0, d1) -> (d0, d1, 0)>(%i, %n) {tag}
  %constant = affine.max affine_map<() -> (3, 4)>()
  return %dims_and_symbols, %symbols_only, %dims_only, %constant : index, index, index, index
}
// CHECK-NEXT: %dims_and_symbols = affine.max affine_map<(d0)[s0] -> (d0, (s0 + 2))>(%i)[%n]
// CHECK-NEXT: %symbols_only = affine.max affine_map<()[s0] -> (s0, 4)>()[%n]
// CHECK-NEXT: %dims_only = affine.max affine_map<(d0, d1) -> (d0, d1, 0)>(%i, %n) {tag}
// CHECK-NEXT: %constant = affine.max affine_map<() -> (3, 4)>()
// GENERIC: %dims_and_symbols = "affine.max"(%i, %n) <{map = affine_map<(d0)[s0] -> (d0, (s0 + 2))>}> : (index, index) -> index
// GENERIC: %dims_only = "affine.max"(%i, %n) <{map = affine_map<(d0, d1) -> (d0, d1, 0)>}> {tag} : (index, index) -> index
