// memref ops: views alias their source, and writes through memref arguments
// are the function's outputs. Our interpreter against upstream.

func.func @subview_fill(%m: memref<4x6xf32>, %v: f32) {
  %s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  linalg.fill ins(%v : f32) outs(%s : memref<2x3xf32, strided<[6, 1], offset: 8>>)
  return
}

func.func @strided_subview_copy(%src: memref<4x6xi32>, %dst: memref<2x3xi32>) {
  %s = memref.subview %src[0, 1] [2, 3] [2, 2] : memref<4x6xi32> to memref<2x3xi32, strided<[12, 2], offset: 1>>
  "memref.copy"(%s, %dst) : (memref<2x3xi32, strided<[12, 2], offset: 1>>, memref<2x3xi32>) -> ()
  return
}

func.func @load_store_alloc(%m: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %tmp = memref.alloc() : memref<3xf64>
  "memref.copy"(%m, %tmp) : (memref<3xf64>, memref<3xf64>) -> ()
  %a = memref.load %tmp[%c0] : memref<3xf64>
  %b = memref.load %tmp[%c2] : memref<3xf64>
  %s = arith.addf %a, %b : f64
  memref.store %s, %m[%c0] : memref<3xf64>
  memref.dealloc %tmp : memref<3xf64>
  return %s : f64
}

func.func @generic_on_memrefs(%a: memref<3x4xf32>, %b: memref<4xf32>, %out: memref<3x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<3x4xf32>, memref<4xf32>) outs(%out : memref<3x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  }
  return
}
