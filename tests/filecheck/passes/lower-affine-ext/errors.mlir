// What lower-affine-ext refuses: affine ops it has no lowering for, named in
// the message; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p lower-affine-ext | filecheck %s

func.func @vector_load(%m: memref<8xf32>, %i: index) -> vector<4xf32> {
  %v = affine.vector_load %m[%i] : memref<8xf32>, vector<4xf32>
  %w = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  return %v : vector<4xf32>
}
// CHECK: lower-affine-ext: 'affine.vector_load' is not supported
