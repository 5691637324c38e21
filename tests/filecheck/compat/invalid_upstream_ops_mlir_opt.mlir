// mlir-opt-22 rejects the inputs of invalid_upstream_ops.mlir with the same
// messages, and accepts its valid near misses.
// REQUIRES: mlir-opt-22
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %S/invalid_upstream_ops.mlir
