// An allocation larger than the machine's memory is refused before it is
// tried, in one line naming the op (located) and the size (the words compiled code
// uses when its malloc fails), not a MemoryError.
// RUN: not linalg-ext-run %s --entry alloc 2>&1 | filecheck %s --check-prefix=ALLOC
// RUN: not linalg-ext-run %s --entry empty 2>&1 | filecheck %s --check-prefix=EMPTY

func.func @alloc() -> memref<?xf32> {
  %n = arith.constant 1099511627776 : index
  %m = memref.alloc(%n) : memref<?xf32>
  return %m : memref<?xf32>
}

func.func @empty() -> tensor<?x?xf64> {
  %n = arith.constant 1048576 : index
  %t = tensor.empty(%n, %n) : tensor<?x?xf64>
  return %t : tensor<?x?xf64>
}

// ALLOC:     linalg-ext-run: error: {{.*}}huge_allocation.mlir:9:8: cannot run @alloc: memref.alloc: cannot allocate 4398046511104 bytes
// ALLOC-NOT: {{.}}
// EMPTY:     linalg-ext-run: error: {{.*}}huge_allocation.mlir:15:8: cannot run @empty: tensor.empty: cannot allocate 8796093022208 bytes
// EMPTY-NOT: {{.}}
