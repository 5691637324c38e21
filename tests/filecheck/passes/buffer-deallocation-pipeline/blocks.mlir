// Functions of several blocks (cf branches): a buffer used only in the
// block that defines it is freed after its last use there; one that leaves
// its block (a branch operand, a use in another block) is not followed and
// not freed (`report` says why). Calls to such a function are as calls to
// one the pass knows nothing about: what is passed to it is not freed.
// RUN: xdsl-opt %s -p "buffer-deallocation-pipeline{report=true}" 2>&1 | filecheck %s

// CHECK:      buffer-deallocation-pipeline: @branches: %u (memref.alloc) not freed: it leaves its block through cf.cond_br: the pass follows no buffer across blocks (unstructured control flow)
// CHECK-NEXT: buffer-deallocation-pipeline: @caller: %t (memref.alloc) not freed: it is passed to @branches, which may free it (@branches has several blocks, which the pass does not follow)
// CHECK-NOT:  not freed

func.func @branches(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
  %u = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%u : memref<4xf32>)
  cf.cond_br %c, ^a(%u : memref<4xf32>), ^b
^a(%v: memref<4xf32>):
  %w = memref.alloc() : memref<4xf32>
  linalg.add ins(%v, %x : memref<4xf32>, memref<4xf32>) outs(%w : memref<4xf32>)
  linalg.add ins(%w, %out : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  cf.br ^b
^b:
  return
}

// CHECK-LABEL: func.func @branches
// CHECK:         linalg.copy ins(%t : memref<4xf32>) outs(%out : memref<4xf32>)
// CHECK-NEXT:    memref.dealloc %t : memref<4xf32>
// CHECK:         cf.cond_br
// CHECK:         linalg.add ins(%w, %out
// CHECK-NEXT:    memref.dealloc %w : memref<4xf32>
// CHECK-NEXT:    cf.br ^{{.*}}
// CHECK-NOT:     memref.dealloc

func.func @caller(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  func.call @branches(%t, %c, %out) : (memref<4xf32>, i1, memref<4xf32>) -> ()
  return
}

// CHECK-LABEL: func.func @caller
// CHECK-NOT:     memref.dealloc
