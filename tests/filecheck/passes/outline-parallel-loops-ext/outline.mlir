// Each outermost 1-D scf.parallel becomes a call to an external launch, which
// the JIT defines to run the outlined body on several threads
// (compile_module(threads=N)); values from outside are the body's arguments,
// constants are cloned into it. Nested, multi-dimensional and reducing loops
// stay.
// RUN: xdsl-opt %s -p outline-parallel-loops-ext | filecheck %s

func.func @scale(%a: memref<?xf32>, %out: memref<?xf32>, %x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c3) {
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.mulf %v, %x : f32
    memref.store %w, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
// CHECK-LABEL: func.func @scale(%a: memref<?xf32>, %out: memref<?xf32>, %x: f32, %n: index)
// CHECK:         func.call @__lx_parallel_launch_0(%a, %x, %out, %c0, %n, %c3) : (memref<?xf32>, f32, memref<?xf32>, index, index, index) -> ()
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @two_dims
// CHECK:         "scf.parallel"
// CHECK:       func.func private @__lx_parallel_body_0(%0: memref<?xf32>, %1: f32, %2: memref<?xf32>, %from: index, %to: index) {
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    scf.for %i = %from to %to step %c3 {
// CHECK-NEXT:      %v = memref.load %0[%i] : memref<?xf32>
// CHECK-NEXT:      %w = arith.mulf %v, %1 : f32
// CHECK-NEXT:      memref.store %w, %2[%i] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @__lx_parallel_launch_0(memref<?xf32>, f32, memref<?xf32>, index, index, index) -> ()

// A loop with two induction variables stays (it runs sequentially): checked
// above, between the two functions.
func.func @two_dims(%out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %one, %out[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  return
}
