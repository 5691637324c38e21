"""Does a pass pipeline keep the program's meaning? The check, as a library.

`check_module(module, pipeline)` applies the pipeline to a copy of the
module, then runs every defined function (or `entry`) before and after on
the same random inputs, `trials` times, and compares every result and every
argument that was a memref before the pipeline as the call left it (memref
outputs), by `linalg_ext.comparison`'s rule. An argument that was a tensor
is not compared: bufferization may reuse its buffer.

Leaks: after the pipeline, a call may not leave more `memref.alloc` buffers
unfreed (and not returned) than it did before, unless `allow_leaks`.

Backends: before the pipeline, functions always run on the interpreter;
after it, on the interpreter or compiled natively (`backend="jit"`:
`linalg_ext.jit`, which counts leaks through its memory tracking).

`linalg-ext-check` (`linalg_ext.tools.check`) is the command line over this.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from linalg_ext.comparison import compare_values, first_difference
from linalg_ext.context import make_context
from linalg_ext.pipelines import PipelineError, first_line, parse_pipeline
from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
    FunctionRun,
    find_function,
    random_inputs,
    run_function,
)

BACKENDS = ("interpreter", "jit")
"""Where a function runs after the pipeline."""


class CheckError(Exception):
    """The check cannot start: a bad pipeline, a pipeline that fails, an
    unknown function or backend, a module that does not compile."""


@dataclass
class FunctionVerdict:
    name: str
    trials: int
    mismatch: str | None = None
    """Where before and after first differ, if they do."""
    error: str | None = None
    """Why the function could not be compared, if it could not."""
    leak: str | None = None
    """The buffers the call leaks after the pipeline and did not before."""

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.error is None and self.leak is None

    def line(self) -> str:
        if self.error is not None:
            return f"@{self.name}: ERROR {self.error}"
        if self.mismatch is not None:
            return f"@{self.name}: MISMATCH {self.mismatch}"
        if self.leak is not None:
            return f"@{self.name}: LEAK {self.leak}"
        return f"@{self.name}: OK ({self.trials} trials)"


@dataclass
class CheckReport:
    verdicts: list[FunctionVerdict] = field(default_factory=list[FunctionVerdict])

    @property
    def ok(self) -> bool:
        return bool(self.verdicts) and all(v.ok for v in self.verdicts)


Runner = Callable[[str, list[Any]], FunctionRun]
"""Runs a function of the module after the pipeline: name, inputs -> run."""


def _runner(module: ModuleOp, backend: str) -> Runner:
    """How functions of `module` run on `backend`. The JIT compiles once,
    with memory tracking so that leaks are counted."""
    if backend == "interpreter":
        return lambda name, inputs: run_function(module, name, inputs)
    if backend != "jit":
        raise CheckError(f"unknown backend {backend!r}: choose one of {BACKENDS}")
    # Imported here: llvmlite and the lowering load only when a check needs them.
    from linalg_ext import jit

    try:
        compiled = jit.compile_module(module, track_memory=True)
    except jit.JitError as error:
        raise CheckError(f"cannot compile natively: {first_line(error)}") from error

    def run(name: str, inputs: list[Any]) -> FunctionRun:
        try:
            return jit.run_function(compiled, name, inputs)
        except jit.JitError as error:
            raise InterpretationError(str(error)) from error

    return run


def _check_function(
    before: ModuleOp,
    after: ModuleOp,
    run_after: Runner,
    name: str,
    trials: int,
    seed: int,
    dim_size: int,
    allow_leaks: bool,
) -> FunctionVerdict:
    verdict = FunctionVerdict(name, trials)
    try:
        after_function = find_function(after, name)
    except InterpretationError:
        verdict.error = "the pipeline removed the function"
        return verdict
    before_function = find_function(before, name)
    if len(before_function.function_type.inputs) != len(
        after_function.function_type.inputs
    ):
        verdict.error = "the pipeline changed the number of arguments"
        return verdict
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        inputs = random_inputs(before_function, rng, dim_size)
        try:
            reference = run_function(before, name, [_copy(v) for v in inputs])
        except (InterpretationError, DiagnosticException) as error:
            verdict.error = f"cannot run before the pipeline: {first_line(error)}"
            return verdict
        try:
            candidate = run_after(name, [_copy(v) for v in inputs])
        except (InterpretationError, DiagnosticException) as error:
            verdict.error = f"cannot run after the pipeline: {first_line(error)}"
            return verdict
        difference = compare_values(reference.results, candidate.results, "result")
        if difference is None:
            difference = _compare_buffer_arguments(
                before_function, reference.arguments, candidate.arguments
            )
        if difference is not None:
            verdict.mismatch = f"{difference} (trial {trial})"
            return verdict
        if not allow_leaks and len(candidate.leaks) > len(reference.leaks):
            leaks = _describe_leaks(candidate.leaks, len(reference.leaks))
            verdict.leak = f"{leaks} (trial {trial})"
            return verdict
    return verdict


def _compare_buffer_arguments(
    function: func.FuncOp, before: list[Any], after: list[Any]
) -> str | None:
    """The first difference in an argument that was a memref before the
    pipeline (a tensor argument is a value: it cannot change, but after
    bufferization its buffer may be written in place, as upstream does)."""
    for index, (type_, expected, actual) in enumerate(
        zip(function.function_type.inputs.data, before, after, strict=True)
    ):
        if not isinstance(type_, MemRefType | UnrankedMemRefType):
            continue
        if (difference := first_difference(expected, actual)) is not None:
            return f"in argument #{index} {difference}"
    return None


def _describe_leaks(leaks: list[str], before: int) -> str:
    """`1 buffer of shape (4, 4) allocated by memref.alloc %t in @f is never
    freed`, saying how many leaked before when some did."""
    if len(leaks) == 1:
        text = f"1 buffer of {leaks[0]} is never freed"
    else:
        text = f"{len(leaks)} buffers are never freed: " + "; ".join(
            f"one of {leak}" for leak in leaks
        )
    if before:
        text += f" ({before} before the pipeline)"
    return text


def _copy(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


def check_module(
    module: ModuleOp,
    pipeline: str | Sequence[ModulePass],
    *,
    entry: str | None = None,
    trials: int = 3,
    seed: int = 0,
    dim_size: int = DEFAULT_DIM_SIZE,
    allow_leaks: bool = False,
    backend: str = "interpreter",
) -> CheckReport:
    """Apply `pipeline` to a copy of `module` and compare every function (or
    `entry`) before (interpreter) and after (on `backend`) on the same random
    inputs. Unless `allow_leaks`, a call that leaks more buffers after the
    pipeline than before fails. Raises `CheckError` when it cannot start."""
    try:
        passes = (
            parse_pipeline(pipeline).passes if isinstance(pipeline, str) else pipeline
        )
    except PipelineError as error:
        raise CheckError(str(error)) from error
    transformed = module.clone()
    ctx = make_context()
    try:
        PassPipeline(tuple(passes)).apply(ctx, transformed)
        transformed.verify()
    except Exception as error:  # a failing pass, whatever it raises, is reported
        raise CheckError(
            f"the pipeline failed: {type(error).__name__}: {first_line(error)}"
        ) from error
    names = (
        [entry]
        if entry is not None
        else [
            op.sym_name.data
            for op in module.walk()
            if isinstance(op, func.FuncOp)
            and not op.is_declaration
            # Compiled code exposes public functions only.
            and (backend != "jit" or op.sym_visibility != StringAttr("private"))
        ]
    )
    if entry is not None:
        try:
            find_function(module, entry)
        except InterpretationError as error:
            raise CheckError(str(error)) from error
    run_after = _runner(transformed, backend)
    report = CheckReport()
    for name in names:
        report.verdicts.append(
            _check_function(
                module,
                transformed,
                run_after,
                name,
                trials,
                seed,
                dim_size,
                allow_leaks,
            )
        )
    return report
