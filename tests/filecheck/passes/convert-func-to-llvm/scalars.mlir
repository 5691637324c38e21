// Functions become llvm.func of the same name: index is i64 (the body sees
// its index argument through a cast), one result is returned as it is,
// several in a struct. Public functions and declarations are external (the
// default, not printed), private definitions internal.
// RUN: xdsl-opt %s -p convert-func-to-llvm | filecheck %s

// CHECK:      llvm.func @scale(%x: f32, %n: i64) -> f32 {
// CHECK-NEXT:   %[[N:.*]] = builtin.unrealized_conversion_cast %n : i64 to index
// CHECK-NEXT:   %[[I:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK-NEXT:   %[[F:.*]] = arith.sitofp %[[I]] : i32 to f32
// CHECK-NEXT:   %[[R:.*]] = arith.mulf %x, %[[F]] : f32
// CHECK-NEXT:   llvm.return %[[R]] : f32
// CHECK-NEXT: }
func.func @scale(%x: f32, %n: index) -> f32 {
  %i = arith.index_cast %n : index to i32
  %f = arith.sitofp %i : i32 to f32
  %r = arith.mulf %x, %f : f32
  return %r : f32
}

// (Names are unique in the module: the printer renames the later %r.)
// CHECK:      llvm.func internal @divmod(%a: i32, %b: i32) -> !llvm.struct<(i32, i32)> {
// CHECK:        %q = arith.divsi %a, %odd : i32
// CHECK-NEXT:   %[[R:.*]] = arith.remsi %a, %odd : i32
// CHECK-NEXT:   %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   %[[S0:.*]] = llvm.insertvalue %q, %[[U]][0] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   %[[S1:.*]] = llvm.insertvalue %[[R]], %[[S0]][1] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   llvm.return %[[S1]] : !llvm.struct<(i32, i32)>
func.func private @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %one = arith.constant 1 : i32
  %odd = arith.ori %b, %one : i32
  %q = arith.divsi %a, %odd : i32
  %r = arith.remsi %a, %odd : i32
  return %q, %r : i32, i32
}

// CHECK:      llvm.func @nothing(%{{.*}}: i1) {
// CHECK-NEXT:   llvm.return
// CHECK-NEXT: }
func.func @nothing(%x: i1) {
  return
}

// A declaration (never called: the interpreter could not run it).
// CHECK: llvm.func @sqrtf(f32) -> f32
func.func private @sqrtf(f32) -> f32

// A struct of results of mixed types, one of them index.
// CHECK:      llvm.func @several(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[X:.*]]: f32, %[[N:.*]]: i64) -> !llvm.struct<(i32, f32, i64)> {
// CHECK-NEXT:   %[[NI:.*]] = builtin.unrealized_conversion_cast %[[N]] : i64 to index
// CHECK-NEXT:   %[[CALL:.*]] = llvm.call @divmod(%[[A]], %[[B]]) : (i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK-NEXT:   %[[Q:.*]] = llvm.extractvalue %[[CALL]][0] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   %[[R:.*]] = llvm.extractvalue %[[CALL]][1] : !llvm.struct<(i32, i32)>
// CHECK-NEXT:   %[[M:.*]] = builtin.unrealized_conversion_cast %[[NI]] : index to i64
// CHECK-NEXT:   %s = llvm.call @scale(%[[X]], %[[M]]) : (f32, i64) -> f32
// CHECK-NEXT:   %abs = math.absf %s : f32
// CHECK-NEXT:   %root = math.sqrt %abs : f32
// CHECK-NEXT:   %t = arith.constant true
// CHECK-NEXT:   llvm.call @nothing(%t) : (i1) -> ()
// CHECK-NEXT:   %sum = arith.addi %[[Q]], %[[R]] : i32
// CHECK-NEXT:   %[[M2:.*]] = builtin.unrealized_conversion_cast %[[NI]] : index to i64
// CHECK-NEXT:   %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i32, f32, i64)>
// CHECK-NEXT:   %[[S0:.*]] = llvm.insertvalue %sum, %[[U]][0] : !llvm.struct<(i32, f32, i64)>
// CHECK-NEXT:   %[[S1:.*]] = llvm.insertvalue %root, %[[S0]][1] : !llvm.struct<(i32, f32, i64)>
// CHECK-NEXT:   %[[S2:.*]] = llvm.insertvalue %[[M2]], %[[S1]][2] : !llvm.struct<(i32, f32, i64)>
// CHECK-NEXT:   llvm.return %[[S2]] : !llvm.struct<(i32, f32, i64)>
func.func @several(%a: i32, %b: i32, %x: f32, %n: index) -> (i32, f32, index) {
  %q, %r = func.call @divmod(%a, %b) : (i32, i32) -> (i32, i32)
  %s = func.call @scale(%x, %n) : (f32, index) -> f32
  %abs = math.absf %s : f32
  %root = math.sqrt %abs : f32
  %t = arith.constant true
  func.call @nothing(%t) : (i1) -> ()
  %sum = arith.addi %q, %r : i32
  return %sum, %root, %n : i32, f32, index
}
