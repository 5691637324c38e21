"""Compile a model's linalg-on-tensors IR (torch-mlir's output for an ONNX
or PyTorch model) to native code, in one call.

    from linalg_ext.models import compile_model

    model = compile_model("model.mlir")        # or MLIR text, or a ModuleOp
    y = model(x)                                # its one public function
    y = model["main_graph"](x)                  # any of several, by name

`compile_model` runs `MODEL_PIPELINE` (the tensor-level passes of
`linalg-ext-model-pipeline{to=tensors}`: canonicalize, fold the ops on
constants, fuse the elementwise chains, canonicalize) and then
`linalg_ext.jit.compile_module`, which bufferizes, lowers and compiles.
By default the floating-point contract is onnxruntime's:
`fast_math="arcp"` (a multiply and an add may fuse, sums and products
may be computed in any order, so reductions vectorise, and `x / y` may be
`x * (1 / y)`, one reciprocal per row of a softmax; NaN, infinities and
signed zeros keep IEEE semantics) and `approximate_math=True` (f32 `exp`,
`tanh`, `erf`, `log`, ... as polynomials, 1-4 ulps, special values exact,
so loops with them vectorise). `fast_math="none", approximate_math=False`
computes what the module computes on the interpreter, bit for bit up to
the libm calls (docs/models.md; `fast_math="fast"` is looser still).

Failures are `ModelError`, a `JitError`, with a one-line message: text that
does not parse, a file that cannot be read, a pass that refuses the module,
compiling that fails. A call failing a run-time check raises `JitError` as
any compiled function does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError

from linalg_ext.context import make_context
from linalg_ext.jit import JitError, JitFunction, JitModule, compile_module
from linalg_ext.lowering.fast_math import FastMathMode
from linalg_ext.pass_pipelines import (
    DEFAULT_FOLD_LIMIT,
    DEFAULT_MODEL_FAST_MATH,
    MODEL_PIPELINE,
    model_pipeline,
)
from linalg_ext.pipelines import PipelineError, apply_pipeline, first_line

__all__ = [
    "MODEL_PIPELINE",
    "CompiledModel",
    "ModelError",
    "compile_model",
    "model_pipeline",
]


class ModelError(JitError):
    """A model that cannot be compiled: the message, one line, says why.

    A `JitError` (what `compile_module` raises), so `except JitError`
    catches every failure of `compile_model` and of the calls."""


@dataclass
class CompiledModel:
    """A compiled model: call it (its one public function) or index it by
    function name."""

    module: JitModule
    """What `linalg_ext.jit.compile_module` returned (compile times, LLVM IR)."""

    @property
    def function_names(self) -> list[str]:
        """The public functions, in the module's order."""
        return list(self.module.functions)

    def __getitem__(self, name: str) -> JitFunction:
        return self.module[name]

    def __call__(self, *arrays: Any) -> Any:
        """Call the module's only public function with numpy arrays (and
        scalars); its result, or a tuple of its results."""
        names = self.function_names
        if len(names) != 1:
            raise JitError(
                f"the model has {len(names)} public functions "
                f"({', '.join('@' + n for n in names) or 'none'}): "
                'call one by name, model["name"](...)'
            )
        return self.module[names[0]](*arrays)


def _parse(text: str, where: str) -> ModuleOp:
    try:
        return Parser(make_context(), text, where).parse_module()
    except ParseError as error:
        # xDSL's message: `file:line:col`, the source line, a caret, the reason.
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        location = lines[0] if lines else where
        reason = lines[-1] if lines else "parse error"
        raise ModelError(f"cannot parse {location}: {reason}") from None
    except DiagnosticException as error:
        raise ModelError(f"cannot parse {where}: {first_line(error)}") from None


def load_model_module(source: ModuleOp | str | os.PathLike[str]) -> ModuleOp:
    """`source` as a module: a ModuleOp as given (not modified by
    `compile_model`, which works on a clone), a str parsed as MLIR text, a
    path read and parsed; else ModelError."""
    if isinstance(source, ModuleOp):
        return source.clone()
    if isinstance(source, os.PathLike):
        path = Path(source)
        try:
            text = path.read_text()
        except OSError as error:
            raise ModelError(f"cannot read {path}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise ModelError(f"cannot read {path}: not a text file (UTF-8)") from None
        return _parse(text, str(path))
    if isinstance(source, str):
        return _parse(source, "<model>")
    raise ModelError(
        "compile_model takes MLIR text (str), a path to a .mlir file or a "
        f"builtin.module, not {type(source).__name__}"
    )


def compile_model(
    source: ModuleOp | str | os.PathLike[str],
    *,
    fast_math: FastMathMode = DEFAULT_MODEL_FAST_MATH,
    approximate_math: bool = True,
    threads: int = 1,
    fold_limit: int = DEFAULT_FOLD_LIMIT,
    runtime_checks: bool = True,
    microkernels: bool = True,
    tile_sizes: Sequence[int] = (),
) -> CompiledModel:
    """Compile a model's linalg-on-tensors module (see the module docstring).

    `source`: MLIR text (str), a path (`os.PathLike`) to a .mlir file, or a
    ModuleOp (left unchanged). `fold_limit`: the largest constant, in
    elements, computed at compile time (`linalg-fold-constants-ext`'s
    `max-elements`). `tile_sizes`: tile each root with these sizes and fuse
    its producers into the tiles (`linalg-tile-and-fuse`; none by default,
    see `model_pipeline`). `fast_math`, `approximate_math`, `threads`,
    `runtime_checks`, `microkernels`: `linalg_ext.jit.compile_module`'s
    options, with the defaults of the module docstring for the first two.

    Raises ModelError (one line) when the source cannot be read or parsed,
    a pass refuses the module, or compiling fails."""
    if isinstance(fold_limit, bool) or not isinstance(fold_limit, int):
        raise ModelError(f"fold_limit must be an int, not {fold_limit!r}")
    if fold_limit < 0:
        raise ModelError(f"fold_limit must be >= 0, not {fold_limit}")
    if isinstance(tile_sizes, str) or not all(
        isinstance(size, int) and not isinstance(size, bool) and size >= 0
        for size in tile_sizes
    ):
        raise ModelError(
            f"tile_sizes must be a sequence of ints >= 0, not {tile_sizes!r}"
        )
    module = load_model_module(source)
    try:
        module.verify()
    except Exception as error:  # xDSL's verifiers raise several types
        raise ModelError(f"invalid IR: {first_line(error)}") from None
    try:
        apply_pipeline(
            model_pipeline(fold_limit, fast_math, approximate_math, tile_sizes),
            module,
        )
    except PipelineError as error:
        raise ModelError(first_line(error)) from None
    except Exception as error:  # a pass refusing the module
        raise ModelError(f"model pipeline: {first_line(error)}") from None
    try:
        compiled = compile_module(
            module,
            fast_math=fast_math,
            approximate_math=approximate_math,
            threads=threads,
            runtime_checks=runtime_checks,
            microkernels=microkernels,
        )
    except JitError as error:
        raise ModelError(first_line(error)) from None
    return CompiledModel(compiled)
