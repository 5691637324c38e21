"""`linalg-ext-import`: an ONNX model as linalg-on-tensors MLIR, by torch-mlir.

    linalg-ext-import MODEL.onnx [-o OUT.mlir] [--weights dense|resources|inputs]
                      [--function-name NAME]

Writes the MLIR text of the model's graph (`linalg_ext.frontends.onnx.
import_onnx`) to OUT.mlir or stdout; the other tools read it as it is
(`linalg-ext-run OUT.mlir`, `linalg-ext-opt OUT.mlir -p ...`). `--weights`:
`dense` (default) keeps torch-mlir's `arith.constant dense<...>` weights,
`resources` puts their elements in a `{-# dialect_resources #-}` section,
`inputs` makes them arguments of the function after the model's inputs.
Needs the `[onnx]` extra (onnx and torch-mlir); every failure is one line
`linalg-ext-import: error: ...` and exit code 1, naming the ONNX node when
the failure is in one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from linalg_ext.frontends.onnx import (
    INSTALL_HINT,
    WEIGHTS_MODES,
    ModelImportError,
    frontend_missing,
    import_onnx,
)
from linalg_ext.tools.common import OneLineArgumentParser, ToolError, run_tool

TOOL = "linalg-ext-import"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineArgumentParser(
        prog=TOOL,
        description="Import an ONNX model as linalg-on-tensors MLIR through "
        "torch-mlir (needs the [onnx] extra: pip install "
        "'xdsl-linalg-ext[onnx]').",
    )
    parser.add_argument("model", help="the .onnx file")
    parser.add_argument(
        "-o", "--output", metavar="OUT.mlir", help="write here (default: stdout)"
    )
    parser.add_argument(
        "--weights",
        choices=WEIGHTS_MODES,
        default="dense",
        help="how the weights appear: dense constants as torch-mlir makes them "
        "(default), dense_resource constants with their blobs in a "
        "dialect_resources section, or extra function arguments after the "
        "model's inputs (the floating-point initializers of more than one "
        "element, in the model's order)",
    )
    parser.add_argument(
        "--function-name",
        metavar="NAME",
        help="name of the function (default: the ONNX graph's name)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def run() -> int:
        if args.function_name is not None and not args.function_name:
            raise ToolError("--function-name must not be empty")
        missing = frontend_missing()
        if missing is not None:
            raise ToolError(
                f"needs the [onnx] extra: {INSTALL_HINT} (missing: {missing})"
            )
        try:
            text = import_onnx(
                args.model, weights=args.weights, function_name=args.function_name
            )
        except ModelImportError as error:
            message = str(error)
            # Failures to read the file name it already.
            if not message.startswith(f"{args.model}:"):
                message = f"{args.model}: {message}"
            raise ToolError(message) from error
        if args.output is None:
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
            return 0
        try:
            Path(args.output).write_text(text)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise ToolError(f"cannot write {args.output}: {reason}") from error
        return 0

    return run_tool(TOOL, run)


def entry_point() -> None:
    sys.exit(main())
