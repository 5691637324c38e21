// custom: the body inlined on the operand buffers; a yielded buffer that is
// not its output already is copied into it. A linalg_ext op inside the body
// is lowered too. alias (of a memref or of a scalar) is its operand.
// RUN: xdsl-opt %s -p convert-linalg-ext-to-loops | filecheck %s

// The body writes the output in place and yields nothing.
func.func @custom_in_place(%a: memref<4xf32>, %b: memref<4xf32>, %o: memref<4xf32>) {
  linalg_ext.custom {target_name = "add"} ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x: memref<4xf32>, %y: memref<4xf32>, %out: memref<4xf32>):
    linalg.add ins(%x, %y : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  }
  func.return
}
// CHECK-LABEL: func.func @custom_in_place(
// CHECK-NEXT:    linalg.add ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%o : memref<4xf32>)
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// The body yields an input for one output (copied) and the output argument
// itself for the other (nothing to copy); the diag inside becomes loops.
func.func @custom_yields(%v: memref<3xf32>, %w: memref<2xf32>, %d: memref<3x3xf32>, %o: memref<2xf32>) {
  linalg_ext.custom ins(%v, %w : memref<3xf32>, memref<2xf32>) outs(%d, %o : memref<3x3xf32>, memref<2xf32>) {
  ^bb0(%x: memref<3xf32>, %y: memref<2xf32>, %dd: memref<3x3xf32>, %oo: memref<2xf32>):
    linalg_ext.diag ins(%x : memref<3xf32>) outs(%dd : memref<3x3xf32>)
    linalg_ext.yield %dd, %y : memref<3x3xf32>, memref<2xf32>
  }
  func.return
}
// CHECK-LABEL: func.func @custom_yields(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %i = %c0 to %c3 step %c1 {
// CHECK-NEXT:      scf.for %j = %c0 to %c3 step %c1 {
// CHECK-NEXT:        memref.store %cst, %d[%i, %j] : memref<3x3xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[V0:[0-9]+]] = memref.load %v[%i] : memref<3xf32>
// CHECK-NEXT:      memref.store %[[V0]], %d[%i, %i] : memref<3x3xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    "memref.copy"(%w, %o) : (memref<2xf32>, memref<2xf32>) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// An alias of a memref: its users take the memref.
func.func @alias_memref(%a: memref<4xf32>, %o: memref<4xf32>) {
  %b = linalg_ext.alias(%a : memref<4xf32>) : memref<4xf32>
  "memref.copy"(%b, %o) : (memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
// CHECK-LABEL: func.func @alias_memref(
// CHECK-NEXT:    "memref.copy"(%a, %o) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }

// An alias of a scalar in a generic body (as input-sharing fusion makes).
func.func @alias_scalar(%x: memref<4xf32>, %o: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %same = linalg_ext.alias(%in : f32) : f32
    %twice = arith.addf %in, %same : f32
    linalg.yield %twice : f32
  }
  func.return
}
// CHECK-LABEL: func.func @alias_scalar(
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<4xf32>) outs(%o : memref<4xf32>) {
// CHECK-NEXT:    ^bb0(%in: f32, %acc: f32):
// CHECK-NEXT:      %twice = arith.addf %in, %in : f32
// CHECK-NEXT:      linalg.yield %twice : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
