// What mlir-opt-22 prints after bufferization, buffer deallocation and the
// LLVM lowering, read back (docs/compat.md, "Reading mlir-opt's output
// back"). Ops xDSL 0.74 defines without a custom form (memref.copy, cast,
// global, rank, extract_aligned_pointer_as_index, affine.if, scf.parallel)
// are read in upstream's form and still printed generically, which
// mlir-opt-22 reads; the ops the compat layer adds (arith.remf,
// arith.index_castui, llvm.mlir.poison, the intrinsics) print as upstream
// prints them. upstream_output_mlir_opt.mlir runs the same through
// mlir-opt-22.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s

memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]> {alignment = 64 : i64}
memref.global @scratch : memref<2xi32> = uninitialized
// CHECK:      "memref.global"() <{alignment = 64 : i64, sym_name = "table", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>, constant}> : () -> ()
// CHECK-NEXT: "memref.global"() <{sym_name = "scratch", sym_visibility = "public", type = memref<2xi32>, initial_value}> : () -> ()

// CHECK-LABEL: func.func @memref_forms
func.func @memref_forms(%a: memref<4xf32>, %b: memref<?xf32, strided<[1], offset: ?>>, %u: memref<*xf32>) -> (memref<?xf32>, index, index) {
  memref.copy %a, %b : memref<4xf32> to memref<?xf32, strided<[1], offset: ?>>
  %c = memref.cast %a : memref<4xf32> to memref<?xf32>
  %r = memref.rank %u : memref<*xf32>
  %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index
  return %c, %r, %p : memref<?xf32>, index, index
}
// CHECK-NEXT: "memref.copy"(%a, %b) : (memref<4xf32>, memref<?xf32, strided<[1], offset: ?>>) -> ()
// CHECK-NEXT: %c = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
// CHECK-NEXT: %r = "memref.rank"(%u) : (memref<*xf32>) -> index
// CHECK-NEXT: %p = "memref.extract_aligned_pointer_as_index"(%a) : (memref<4xf32>) -> index

// CHECK-LABEL: func.func @arith_forms
func.func @arith_forms(%x: f32, %y: f32, %n: i32) -> (f32, f32, index) {
  %m = arith.remf %x, %y fastmath<fast> : f32
  %plain = arith.remf %x, %y : f32
  %k = arith.index_castui %n : i32 to index
  return %m, %plain, %k : f32, f32, index
}
// CHECK-NEXT: %m = arith.remf %x, %y fastmath<fast> : f32
// CHECK-NEXT: %plain = arith.remf %x, %y : f32
// CHECK-NEXT: %k = arith.index_castui %n : i32 to index

// A semi-affine map (a product of a dimension and a symbol), symbol(%x) in
// an access, and affine.if in its custom form (result-less regions without
// their affine.yield).
// CHECK-LABEL: func.func @affine_forms
func.func @affine_forms(%m: memref<4x4xi32>, %i: index, %s: index) -> (index, i32) {
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%i)[%s]
  %v = affine.load %m[symbol(%i), -symbol(%s) + 3] : memref<4x4xi32>
  %r = affine.if affine_set<(d0)[s0] : (d0 - 1 >= 0, -d0 + s0 - 1 >= 0)>(%i)[%s] -> index {
    affine.yield %a : index
  } else {
    affine.yield %s : index
  }
  affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    affine.store %v, %m[symbol(%i), symbol(%i)] : memref<4x4xi32>
  }
  return %r, %v : index, i32
}
// CHECK-NEXT: %a = affine.apply affine_map<(d0)[s0] -> ((d0 * s0))> (%i)[%s]
// CHECK-NEXT: %v = affine.load %m[%i, %s * -1 + 3] : memref<4x4xi32>
// CHECK-NEXT: %r = "affine.if"(%i, %s) <{condition = affine_set<(d0)[s0] : ((d0 + -1) >= 0, (((d0 * -1) + s0) + -1) >= 0)>}> ({
// CHECK-NEXT:   affine.yield %a : index
// CHECK-NEXT: }, {
// CHECK-NEXT:   affine.yield %s : index
// CHECK-NEXT: }) : (index, index) -> index
// CHECK-NEXT: "affine.if"(%i) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
// CHECK-NEXT:   affine.store %v, %m[%i, %i] : memref<4x4xi32>
// CHECK-NEXT:   affine.yield
// CHECK-NEXT: }, {
// CHECK-NEXT: }) : (index) -> ()

// scf.parallel in its custom form; scf.reduce with two reductions, printed
// with upstream's comma; scf.index_switch's default region without its scf.yield (upstream leaves
// out only that one).
// CHECK-LABEL: func.func @scf_forms
func.func @scf_forms(%m: memref<4xf32>, %n: index) -> (f32, index) {
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
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %m[%i] : memref<4xf32>
  }
  scf.index_switch %n
  case 2 {
    scf.yield
  }
  default {
    memref.store %zero, %m[%c0] : memref<4xf32>
  }
  return %sum, %count : f32, index
}
// CHECK:      %sum, %count = "scf.parallel"(%c0, %n, %c1, %zero, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
// CHECK-NEXT: ^bb0(%i: index):
// CHECK-NEXT:   %v = memref.load %m[%i] : memref<4xf32>
// CHECK-NEXT:   scf.reduce(%v, %c1 : f32, index) {
// CHECK-NEXT:   ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:     %s = arith.addf %a, %b : f32
// CHECK-NEXT:     scf.reduce.return %s : f32
// CHECK-NEXT:   }, {
// CHECK-NEXT:   ^bb0(%a_1: index, %b_1: index):
// CHECK-NEXT:     %s_1 = arith.addi %a_1, %b_1 : index
// CHECK-NEXT:     scf.reduce.return %s_1 : index
// CHECK-NEXT:   }
// CHECK-NEXT: }) : (index, index, index, f32, index) -> (f32, index)
// CHECK-NEXT: "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
// CHECK-NEXT: ^bb0(%i_1: index):
// CHECK-NEXT:   memref.store %zero, %m[%i_1] : memref<4xf32>
// CHECK-NEXT:   scf.reduce
// CHECK-NEXT: }) : (index, index, index) -> ()
// CHECK-NEXT: scf.index_switch %n
// CHECK-NEXT: case 2 {
// CHECK-NEXT:   scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: default {
// CHECK-NEXT:   memref.store %zero, %m[%c0] : memref<4xf32>
// CHECK-NEXT:   scf.yield
// CHECK-NEXT: }

// linalg.index in a linalg.map (the bufferization of tensor.generate).
// CHECK-LABEL: func.func @map_index
func.func @map_index(%out: memref<4x3xf32>) {
  linalg.map outs(%out : memref<4x3xf32>)
    (%init: f32) {
      %i = linalg.index 0 : index
      %f = arith.index_cast %i : index to i32
      %v = arith.sitofp %f : i32 to f32
      linalg.yield %v : f32
    }
  return
}
// CHECK-NEXT: linalg.map outs(%out : memref<4x3xf32>)
// CHECK-NEXT:   (%init: f32) {
// CHECK-NEXT:     %i = linalg.index 0 : index

// CHECK-LABEL: llvm.func @llvm_forms
llvm.func @llvm_forms(%p: !llvm.ptr, %i: i64, %x: f32, %n: i32, %c: i1) -> f32 {
  %d = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  %q = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.intr.assume %c ["align"(%q, %i : !llvm.ptr, i64)] : i1
  llvm.intr.assume %c : i1
  %t = llvm.intr.tanh(%x) : (f32) -> f32
  %w = llvm.intr.powi(%t, %n) : (f32, i32) -> f32
  %a = llvm.intr.atan2(%w, %x) : (f32, f32) -> f32
  %nan = "llvm.intr.is.fpclass"(%a) <{bit = 3 : i32}> : (f32) -> i1
  %o = "llvm.intr.uadd.with.overflow"(%n, %n) : (i32, i32) -> !llvm.struct<(i32, i1)>
  llvm.return %a : f32
}
// CHECK-NEXT: %d = llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT: %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.intr.assume %c ["align"(%q, %i : !llvm.ptr, i64)] : i1
// CHECK-NEXT: llvm.intr.assume %c : i1
// CHECK-NEXT: %t = llvm.intr.tanh(%x) : (f32) -> f32
// CHECK-NEXT: %w = llvm.intr.powi(%t, %n) : (f32, i32) -> f32
// CHECK-NEXT: %a = llvm.intr.atan2(%w, %x) : (f32, f32) -> f32
// CHECK-NEXT: %nan = "llvm.intr.is.fpclass"(%a) <{bit = 3 : i32}> : (f32) -> i1
// CHECK-NEXT: %o = "llvm.intr.uadd.with.overflow"(%n, %n) : (i32, i32) -> !llvm.struct<(i32, i1)>
