// What buffer-deallocation-pipeline refuses, as upstream does: a function
// with an op of unknown memory effects (it might free, keep or allocate any
// buffer). The message names the op; the module is left unchanged.
// RUN: xdsl-opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s -p buffer-deallocation-pipeline | filecheck %s

func.func @unregistered(%x: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  "my.consume"(%t) : (memref<4xf32>) -> ()
  return
}
// CHECK: buffer-deallocation-pipeline: 'my.consume': ops with unknown memory side effects are not supported

// -----

// Upstream refuses it even when no buffer reaches the op.
func.func @no_buffer(%x: memref<4xf32>, %v: f32) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  "my.op"(%v) : (f32) -> ()
  return
}
// CHECK: buffer-deallocation-pipeline: 'my.op': ops with unknown memory side effects are not supported

// -----

// A registered op that declares no memory effects, of a dialect the pass
// does not model.
func.func @undeclared(%x: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  "test.op"(%t) : (memref<4xf32>) -> ()
  return
}
// CHECK: buffer-deallocation-pipeline: 'test.op': ops with unknown memory side effects are not supported
