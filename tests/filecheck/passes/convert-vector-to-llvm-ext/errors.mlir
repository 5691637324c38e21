// What the vector lowering refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p convert-vector-to-llvm-ext | filecheck %s
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p finalize-memref-to-llvm | filecheck %s --check-prefix=MEMREF

func.func @broadcast_2d(%s: f32) -> vector<2x4xf32> {
  %v = vector.broadcast %s : f32 to vector<2x4xf32>
  return %v : vector<2x4xf32>
}
// CHECK: convert-vector-to-llvm-ext: 'vector.broadcast': only one-dimensional vectors are supported: vector<2x4xf32>

// -----

func.func @broadcast_vector(%v: vector<4xf32>) -> vector<4xf32> {
  %w = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  return %w : vector<4xf32>
}
// CHECK: convert-vector-to-llvm-ext: 'vector.broadcast': broadcasting a vector (vector<4xf32>) is not supported (only a scalar source)

// -----

func.func @scalable(%a: vector<[4]xf32>) -> f32 {
  %r = vector.reduction <add>, %a : vector<[4]xf32> into f32
  return %r : f32
}
// CHECK: convert-vector-to-llvm-ext: 'vector.reduction': scalable vectors are not supported: vector<[4]xf32>

// -----

func.func @kind(%a: vector<4xi32>) -> i32 {
  %r = vector.reduction <maxnumf>, %a : vector<4xi32> into i32
  return %r : i32
}
// CHECK: convert-vector-to-llvm-ext: 'vector.reduction': kind <maxnumf> does not reduce integers

// -----

func.func @column(%m: memref<4x8xf32, strided<[1, 4]>>, %i: index) -> vector<4xf32> {
  %v = vector.load %m[%i, %i] : memref<4x8xf32, strided<[1, 4]>>, vector<4xf32>
  return %v : vector<4xf32>
}
// MEMREF: finalize-memref-to-llvm: 'vector.load': the innermost stride of memref<4x8xf32, strided<[1, 4]>> must be a static 1 (the vector's lanes are consecutive elements)

// -----

func.func @dynamic_stride(%m: memref<4x8xf32, strided<[8, ?]>>, %v: vector<4xf32>, %i: index) {
  vector.store %v, %m[%i, %i] : memref<4x8xf32, strided<[8, ?]>>, vector<4xf32>
  return
}
// MEMREF: finalize-memref-to-llvm: 'vector.store': the innermost stride of memref<4x8xf32, strided<[8, ?]>> must be a static 1 (the vector's lanes are consecutive elements)
