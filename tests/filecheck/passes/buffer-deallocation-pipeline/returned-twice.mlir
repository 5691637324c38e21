// A buffer the function owns returned more than once (whole and/or as
// views): one result hands it over (the caller owns it), the others are
// copies the caller owns; a result of a type no copy can have (static
// strides or offset) is returned as the view it is, and each buffer it may
// be a view of is freed unless it is the one viewed. Nothing is refused.
// RUN: xdsl-opt %s -p "buffer-deallocation-pipeline{report=true}" 2>&1 | filecheck %s
// CHECK-NOT: not freed

// The same buffer twice: the second result is a copy.
func.func @same_twice(%x: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  return %t, %t : memref<4xf32>, memref<4xf32>
}

// CHECK-LABEL: func.func @same_twice
// CHECK:         %[[COPY:[0-9]+]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%t, %[[COPY]])
// CHECK-NEXT:    func.return %t, %[[COPY]] : memref<4xf32>, memref<4xf32>

// A view and the whole: the whole is handed over, the view copied.
func.func @view_and_whole(%x: memref<4xf32>) -> (memref<2xf32, strided<[?], offset: ?>>, memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %v = memref.subview %t[%c1] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
  return %v, %t : memref<2xf32, strided<[?], offset: ?>>, memref<4xf32>
}

// CHECK-LABEL: func.func @view_and_whole
// CHECK:         %[[COPY:[0-9]+]] = memref.alloc() : memref<2xf32>
// CHECK-NEXT:    "memref.copy"(%v, %[[COPY]])
// CHECK-NEXT:    %[[CAST:[0-9]+]] = "memref.cast"(%[[COPY]])
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %[[CAST]], %t

// Two views: both copied, then the buffer is freed.
func.func @two_views(%x: memref<4xf32>) -> (memref<2xf32, strided<[?], offset: ?>>, memref<3xf32, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %v = memref.subview %t[%c0] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
  %w = memref.subview %t[%c1] [3] [%c1] : memref<4xf32> to memref<3xf32, strided<[?], offset: ?>>
  return %v, %w : memref<2xf32, strided<[?], offset: ?>>, memref<3xf32, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @two_views
// CHECK:         "memref.copy"(%v
// CHECK:         "memref.copy"(%w
// CHECK:         memref.dealloc %t : memref<4xf32>
// CHECK-NEXT:    func.return

// Through an scf.if choosing between two buffers, returned whole and as a
// view: the whole is handed over (by address), the view copied, and the
// buffer not chosen freed after the copy.
func.func @whole_and_view_through_if(%x: memref<4xf32>, %c: i1) -> (memref<4xf32>, memref<2xf32, strided<[?], offset: ?>>) {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  linalg.abs ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  %v = memref.subview %r[%c2] [2] [%c1] : memref<4xf32> to memref<2xf32, strided<[?], offset: ?>>
  return %r, %v : memref<4xf32>, memref<2xf32, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @whole_and_view_through_if
// CHECK:         "memref.copy"(%v
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %a : memref<4xf32>
// CHECK-NEXT:    }
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %b : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// The fuzzer's shape (seed 6266): a view of a type no copy can have (static
// offset) and the whole. The view is returned as it is; the whole is a copy;
// the buffer not viewed is freed.
func.func @static_view_and_whole_through_if(%x: memref<2x2xf32>, %c: i1) -> (memref<1x1xf32, strided<[2, 1], offset: 2>>, memref<2x2xf32>) {
  %a = memref.alloc() : memref<2x2xf32>
  linalg.exp ins(%x : memref<2x2xf32>) outs(%a : memref<2x2xf32>)
  %b = memref.alloc() : memref<2x2xf32>
  linalg.abs ins(%x : memref<2x2xf32>) outs(%b : memref<2x2xf32>)
  %r = scf.if %c -> (memref<2x2xf32>) {
    scf.yield %a : memref<2x2xf32>
  } else {
    scf.yield %b : memref<2x2xf32>
  }
  %v = memref.subview %r[1, 0] [1, 1] [1, 1] : memref<2x2xf32> to memref<1x1xf32, strided<[2, 1], offset: 2>>
  return %v, %r : memref<1x1xf32, strided<[2, 1], offset: 2>>, memref<2x2xf32>
}

// CHECK-LABEL: func.func @static_view_and_whole_through_if
// CHECK:         %[[COPY:[0-9]+]] = memref.alloc() : memref<2x2xf32>
// CHECK-NEXT:    "memref.copy"(%r, %[[COPY]])
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %a : memref<2x2xf32>
// CHECK-NEXT:    }
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %b : memref<2x2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %v, %[[COPY]]

// The fuzzer's other shape (seeds 6609, 9893): one view of a static offset
// of either buffer; the one not viewed is freed.
func.func @static_view_of_either(%x: memref<4xf32>, %c: i1) -> memref<2xf32, strided<[1], offset: 1>> {
  %a = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = memref.alloc() : memref<4xf32>
  linalg.abs ins(%x : memref<4xf32>) outs(%b : memref<4xf32>)
  %r = scf.if %c -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  %v = memref.subview %r[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  return %v : memref<2xf32, strided<[1], offset: 1>>
}

// CHECK-LABEL: func.func @static_view_of_either
// CHECK-NOT:     memref.copy
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %a : memref<4xf32>
// CHECK-NEXT:    }
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK-NEXT:      memref.dealloc %b : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %v

// Two views of static offsets of one buffer: both returned as they are
// (the caller keeps the buffer alive through them), nothing freed.
func.func @two_static_views(%x: memref<4xf32>) -> (memref<2xf32, strided<[1], offset: 1>>, memref<2xf32, strided<[1], offset: 2>>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  %v = memref.subview %t[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  %w = memref.subview %t[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
  return %v, %w : memref<2xf32, strided<[1], offset: 1>>, memref<2xf32, strided<[1], offset: 2>>
}

// CHECK-LABEL: func.func @two_static_views
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.dealloc
// CHECK:         func.return %v, %w

// A caller of @same_twice owns both results (independent buffers): it
// frees both after their last uses.
func.func @calls_same_twice(%x: memref<4xf32>, %out: memref<4xf32>) {
  %p, %q = func.call @same_twice(%x) : (memref<4xf32>) -> (memref<4xf32>, memref<4xf32>)
  linalg.add ins(%p, %q : memref<4xf32>, memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @calls_same_twice
// CHECK:         linalg.add
// CHECK-NEXT:    memref.dealloc %p : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %q : memref<4xf32>
// CHECK-NEXT:    func.return
