// What finalize-memref-to-llvm refuses, each with a message naming the op and
// the reason; the module is left unchanged.
// RUN: xdsl-opt --split-input-file --verify-diagnostics %s -p finalize-memref-to-llvm | filecheck %s

func.func @atomic(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  %r = "memref.atomic_rmw"(%v, %m, %i) <{kind = 0 : i64}> : (f32, memref<4xf32>, index) -> f32
  return %r : f32
}
// CHECK: finalize-memref-to-llvm: 'memref.atomic_rmw': atomic read-modify-write is not lowered

// -----

func.func @unranked(%a: memref<4xf32>) {
  %u = "memref.cast"(%a) : (memref<4xf32>) -> memref<*xf32>
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.cast': unranked memrefs are not supported: memref<*xf32>

// -----

// An integer memory space is ordinary memory (see memory_space.mlir); a
// named one has no meaning on the CPU.
func.func @memory_space() {
  %m = memref.alloc() : memref<4xf32, "shared">
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.alloc': memory space "shared" is not supported (only integer ones): memref<4xf32, "shared">

// -----

func.func @space_cast(%a: memref<4xf32>) {
  %b = "memref.memory_space_cast"(%a) : (memref<4xf32>) -> memref<4xf32, 1 : i64>
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.memory_space_cast': memory spaces other than the default are not supported

// -----

func.func @element_type(%a: memref<4xbf16>, %i: index) -> bf16 {
  %v = memref.load %a[%i] : memref<4xbf16>
  return %v : bf16
}
// CHECK: finalize-memref-to-llvm: 'memref.load': element type bf16 is not supported (f16, f32, f64, i1, i8, i16, i32, i64, index): memref<4xbf16>

// -----

func.func @affine_layout(%a: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) -> f32 {
  %v = memref.load %a[%i, %i] : memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>
  return %v : f32
}
// CHECK: finalize-memref-to-llvm: 'memref.load': layout affine_map<(d0, d1) -> (d1, d0)> is not strided: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>

// -----

func.func @strided_alloc() {
  %m = memref.alloc() : memref<4x4xf32, strided<[1, 4]>>
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.alloc': only an identity layout can be allocated, not memref<4x4xf32, strided<[1, 4]>>

// -----

func.func @copy_in_loop(%a: memref<8x8xf32>, %b: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %s = memref.subview %a[%i, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
    "memref.copy"(%s, %b) : (memref<4x4xf32, strided<[8, 1], offset: ?>>, memref<4x4xf32>) -> ()
  }
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.copy': copying non-contiguous memrefs needs a loop, which cannot be built inside 'scf.for' (lower its control flow first, e.g. convert-scf-to-cf-ext)

// -----

func.func @missing_global() -> f32 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @nowhere : memref<4xf32>
  %v = memref.load %g[%c0] : memref<4xf32>
  return %v : f32
}
// CHECK: finalize-memref-to-llvm: 'memref.get_global': no memref.global @nowhere in the module to refer to

// -----

func.func private @malloc(i64) -> i64
func.func @taken() -> memref<4xf32> {
  %m = memref.alloc() : memref<4xf32>
  return %m : memref<4xf32>
}
// CHECK: finalize-memref-to-llvm: 'memref.alloc': calls @malloc of type !llvm.func<!llvm.ptr (i64)>, but the module's 'func.func' @malloc is something else

// -----

func.func @scope() {
  "memref.alloca_scope"() ({
    %m = memref.alloca() : memref<4xf32>
    "memref.alloca_scope.return"() : () -> ()
  }) : () -> ()
  return
}
// CHECK: finalize-memref-to-llvm: 'memref.alloca_scope': alloca scopes are not lowered
