// Semi-affine maps (a division, modulo or product by a symbol) in affine.apply,
// affine.min/max and memory accesses, as upstream's tests write them: read,
// printed, and read back (custom and generic forms). In accesses a bare %x is
// a dimension and symbol(%x) a symbol, as upstream reads them; the generic
// form shows the maps.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @semi_affine
// GENERIC-LABEL: sym_name = "semi_affine"
func.func @semi_affine(%i: index, %n: index, %m: memref<64xf32>) -> (index, index, index, f32) {
  %tiles = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%i)[%n]
  %row = affine.min affine_map<(d0)[s0] -> (d0 floordiv s0, 7)>(%i)[%n]
  %col = affine.max affine_map<(d0)[s0, s1] -> (d0 mod s0, s1)>(%i)[%n, %n]
  %v = affine.load %m[%i floordiv symbol(%n)] : memref<64xf32>
  affine.store %v, %m[%i mod symbol(%n) + 1] : memref<64xf32>
  return %tiles, %row, %col, %v : index, index, index, f32
}
// CHECK:      %tiles = affine.apply affine_map<(d0)[s0] -> ((d0 ceildiv s0))> (%i)[%n]
// CHECK:      %row = affine.min affine_map<(d0)[s0] -> ((d0 floordiv s0), 7)> (%i)[%n]
// CHECK:      %col = affine.max affine_map<(d0)[s0, s1] -> ((d0 mod s0), s1)>(%i)[%n, %n]
// CHECK:      %v = affine.load %m[%i floordiv symbol(%n)] : memref<64xf32>
// CHECK:      affine.store %v, %m[%i mod symbol(%n) + 1] : memref<64xf32>

// GENERIC: "affine.load"(%m, %i, %n) <{map = affine_map<(d0)[s0] -> ((d0 floordiv s0))>}>
// GENERIC: "affine.store"(%v, %m, %i, %n) <{map = affine_map<(d0)[s0] -> (((d0 mod s0) + 1))>}>

// A loop's induction variable indexes as a dimension: upstream refuses it as
// a symbol.
// CHECK-LABEL: func.func @in_a_loop
// GENERIC-LABEL: sym_name = "in_a_loop"
func.func @in_a_loop(%m: memref<64xf32>, %n: index) {
  affine.for %i = 0 to 8 {
    %v = affine.load %m[%i * symbol(%n) + %i floordiv 2] : memref<64xf32>
    affine.store %v, %m[%i] : memref<64xf32>
  }
  return
}
// CHECK:      %v = affine.load %m[%i * symbol(%n) + %i floordiv 2] : memref<64xf32>
// CHECK-NEXT: affine.store %v, %m[%i] : memref<64xf32>
// GENERIC: "affine.load"(%m, %i, %n) <{map = affine_map<(d0)[s0] -> (((d0 * s0) + (d0 floordiv 2)))>}>
// GENERIC: "affine.store"(%v, %m, %i) <{map = affine_map<(d0) -> (d0)>}>
