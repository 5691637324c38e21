// --list-passes: every pass, xDSL's and ours, sorted by name, each with the
// first sentence of its docstring.
// RUN: linalg-ext-opt --list-passes | filecheck %s
// RUN: linalg-ext-opt --list-passes | sort -c

// CHECK:      buffer-deallocation-pipeline {{ +}}Insert `memref.dealloc` for every buffer
// CHECK:      canonicalize {{ +}}Applies all canonicalization patterns.
// CHECK:      convert-linalg-ext-to-loops {{ +}}Lower every `linalg_ext` op on memrefs
// CHECK:      convert-linalg-to-loops-ext {{ +}}Lower every Linalg structured op
// CHECK:      fuse-pad {{ +}}Fuse `tensor.pad`
// CHECK:      lower-to-llvm {{ +}}Lower a memref program
// CHECK:      one-shot-bufferize {{ +}}Bufferize every tensor op
// CHECK:      reconcile-unrealized-casts
