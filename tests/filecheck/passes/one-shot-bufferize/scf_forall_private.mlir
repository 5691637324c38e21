// A buffer allocated outside an scf.forall and written inside it would be
// shared by iterations that may run at once: the write gets a private
// buffer per iteration (upstream's check-parallel-regions, on by default).
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

func.func @race(%x: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %s = tensor.empty() : tensor<8xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %out) -> (tensor<64xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %xs = tensor.extract_slice %x[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
    %e = linalg.exp ins(%xs : tensor<8xf32>) outs(%s : tensor<8xf32>) -> tensor<8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}
// CHECK-LABEL: func.func @race
// CHECK:         scf.forall (%i) in (8) {
// CHECK:           %1 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:      linalg.exp ins(%0 : {{.*}}) outs(%1 : memref<8xf32>)
// CHECK-NEXT:      %2 = memref.subview %out[%off] [8] [1]
// CHECK-NEXT:      "memref.copy"(%1, %2)
// CHECK-NEXT:    }
// ANALYSIS-LABEL: func.func @race
// ANALYSIS:       linalg.exp {{.*}}__inplace_operands_attr__ = ["true", "false"]
