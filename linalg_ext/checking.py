"""Does a pass pipeline keep the program's meaning? The check, as a library.

`check_module(module, pipeline)` verifies the module, applies the pipeline to
a copy, then runs every defined function (or `entry`) before and after on
the same inputs (random, `trials` times, or the `inputs` given), and
compares every result and every argument that was a memref before the
pipeline as the call left it (memref outputs), by `linalg_ext.comparison`'s
rule. An argument that was a tensor is not compared: bufferization may reuse
its buffer. A call that refuses to run (an `InterpretationError`, or a
`JitError` of a run-time check) before and after the pipeline with the same
message agrees; with different messages it is a mismatch.

Undefined reads: the elements of a fresh `tensor.empty`, `memref.alloc` or
`memref.alloca` are undefined (the interpreter gives zeros, compiled code
whatever `malloc` returns). On the first trial, and again whenever before
and after disagree, the function is re-run before the pipeline with fresh
buffers filled with patterns (`linalg_ext.semantics.fresh_buffers`): if what
it does changes, it reads uninitialised memory, which is the program's
fault, not the pipeline's. Filling one site at a time names the sites:
`reads uninitialised memory of %e (tensor.empty at f.mlir:3:8)`. After the
pipeline, the interpreter fills fresh buffers with a pattern, so that a pass
that makes a program read uninitialised memory shows as a mismatch (which
then says what it reads).

Random inputs: as `linalg_ext.running.random_inputs` makes them, except
for arguments given a `ValueRange` (`parse_value_range("%idx=0:7")`) and the
indices of a `linalg_ext.scatter` that are function arguments, which get
valid positions, in [0, extent) of the dimension each addresses
(`linalg_ext.value_ranges`).

Leaks: after the pipeline, a call may not leave more `memref.alloc` buffers
unfreed (and not returned) than it did before, unless `allow_leaks`.

Backends: before the pipeline, functions always run on the interpreter;
after it, on the interpreter or compiled natively (`backend="jit"`:
`linalg_ext.jit`, which counts leaks through its memory tracking).

Fast math: compiled with `fast_math` other than "none" (`backend="jit"`
only; `linalg_ext.lowering.fast_math`), compiled code may fuse
multiply-adds and reorder sums, so results may differ from the interpreter's
by more than rounding: each float result and memref output then gets the
slack `fast_math_slack` (docs/jit.md, "Floating-point contract").

`linalg-ext-check` (`linalg_ext.tools.check`) is the command line over this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import (
    DiagnosticException,
    InterpretationError,
    VerifyException,
)

from linalg_ext.comparison import compare_values, first_difference
from linalg_ext.conditioning import conditioning
from linalg_ext.context import make_context
from linalg_ext.diagnostics import failing_op, source_location
from linalg_ext.lowering.fast_math import (
    FastMathMode,
    check_fast_math_mode,
    fast_math_slack,
)
from linalg_ext.pipelines import PipelineError, first_line, parse_pipeline
from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
    FunctionRun,
    find_function,
    run_function,
)
from linalg_ext.semantics.fresh_buffers import ZERO, FreshFill, filling
from linalg_ext.value_ranges import (
    ValueRange,
    ValueRangeError,
    argument_bounds,
    argument_index,
    parse_value_range,
    random_trial_inputs,
)

BACKENDS = ("interpreter", "jit")
"""Where a function runs after the pipeline."""

FRESH_BUFFER_OPS = frozenset(
    {"tensor.empty", "bufferization.alloc_tensor", "memref.alloc", "memref.alloca"}
)
"""The ops whose buffers hold undefined elements until written (the sites)."""

PROBES = (FreshFill("high"), FreshFill("low"))
"""The fills a function is re-run with to see whether it reads fresh buffers."""

AFTER_FILL = PROBES[0]
"""How the interpreter fills fresh buffers after the pipeline: a function
whose results depend on it disagrees with the run before (zeros), and the
disagreement is then traced to its reads."""


class CheckError(Exception):
    """The check cannot start: an input that does not verify, a bad pipeline,
    a pipeline that fails (`PipelineFailed`), an unknown function or backend,
    a bad value range, a module that does not compile. `location`: the
    (file, line, column) of the op it is about, when known."""

    def __init__(self, message: str, location: tuple[str, int, int] | None = None):
        super().__init__(message)
        self.message = message
        self.location = location


PipelineOutcome = Literal["refused", "invalid", "internal"]


class PipelineFailed(CheckError):
    """The pipeline failed on the module: a pass `refused` it (raised a
    diagnostic, e.g. `OpPassFailed`: the message is the pass's, as
    `linalg-ext-opt` gives it, and `location` is its op's), left it
    `invalid` (its output does not verify, or a pass raised a
    `VerifyException`), or raised an exception nobody meant to raise
    (`internal`: the message names the exception's class; `__cause__` is
    the exception). `pass_name`: the pass that failed (None when the whole
    pipeline's output does not verify)."""

    def __init__(
        self,
        message: str,
        location: tuple[str, int, int] | None = None,
        *,
        outcome: PipelineOutcome = "refused",
        pass_name: str | None = None,
    ):
        super().__init__(message, location)
        self.outcome: PipelineOutcome = outcome
        self.pass_name = pass_name


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
    undefined: str | None = None
    """The fresh buffers the function reads before writing them, if it does
    (before the pipeline: what it computes depends on their contents)."""
    refused: int = 0
    """The trials on which the call refused to run, before and after the
    pipeline alike, with the same message (`refusal`, the first one's)."""
    refusal: str | None = None

    @property
    def ok(self) -> bool:
        return (
            self.mismatch is None
            and self.error is None
            and self.leak is None
            and self.undefined is None
        )

    def line(self) -> str:
        if self.error is not None:
            return f"@{self.name}: ERROR {self.error}"
        if self.undefined is not None:
            return f"@{self.name}: UNDEFINED {self.undefined}"
        if self.mismatch is not None:
            return f"@{self.name}: MISMATCH {self.mismatch}"
        if self.leak is not None:
            return f"@{self.name}: LEAK {self.leak}"
        text = f"@{self.name}: OK ({self.trials} trial{'s' * (self.trials != 1)}"
        if self.refused:
            text += (
                f"; {self.refused} refused before and after the pipeline "
                f"with the same message: {self.refusal}"
            )
        return text + ")"


@dataclass
class CheckReport:
    verdicts: list[FunctionVerdict] = field(default_factory=list[FunctionVerdict])

    @property
    def ok(self) -> bool:
        return bool(self.verdicts) and all(v.ok for v in self.verdicts)


# --------------------------------------------------------------------------
# Running and comparing
# --------------------------------------------------------------------------


@dataclass
class _Outcome:
    """A run, or the message of its refusal."""

    run: FunctionRun | None = None
    refusal: str | None = None
    crashed: bool = False
    """The refusal is an exception no interpreter or JIT means to raise."""


Runner = Callable[[str, list[Any]], FunctionRun]
"""Runs a function of the module after the pipeline: name, inputs -> run."""


def _attempt(run: Runner, name: str, inputs: list[Any]) -> _Outcome:
    try:
        return _Outcome(run=run(name, [_copy(v) for v in inputs]))
    except (InterpretationError, DiagnosticException) as error:
        return _Outcome(refusal=first_line(error))
    except Exception as error:  # reported as such; a fill may cause it
        message = f"internal error: {type(error).__name__}: {first_line(error)}"
        return _Outcome(refusal=message, crashed=True)


def _interpret(
    module: ModuleOp, name: str, inputs: list[Any], fill: FreshFill = ZERO
) -> _Outcome:
    def run(name: str, inputs: list[Any]) -> FunctionRun:
        with filling(fill):
            return run_function(module, name, inputs)

    return _attempt(run, name, inputs)


def _runner(
    module: ModuleOp,
    backend: str,
    fast_math: FastMathMode = "none",
    approximate_math: bool = False,
) -> Runner:
    """How functions of `module` run on `backend`. The JIT compiles once,
    with memory tracking so that leaks are counted, in the `fast_math`
    mode (with `approximate_math`'s polynomials if asked)."""
    if backend == "interpreter":

        def interpret(name: str, inputs: list[Any]) -> FunctionRun:
            with filling(AFTER_FILL):
                return run_function(module, name, inputs)

        return interpret
    if backend != "jit":
        raise CheckError(f"unknown backend {backend!r}: choose one of {BACKENDS}")
    # Imported here: llvmlite and the lowering load only when a check needs them.
    from linalg_ext import jit

    try:
        compiled = jit.compile_module(
            module,
            track_memory=True,
            fast_math=fast_math,
            approximate_math=approximate_math,
        )
    except jit.JitError as error:
        raise CheckError(f"cannot compile natively: {first_line(error)}") from error

    def run(name: str, inputs: list[Any]) -> FunctionRun:
        try:
            return jit.run_function(compiled, name, inputs)
        except jit.JitError as error:
            raise InterpretationError(str(error)) from error

    return run


_FUNCTION_PREFIX = re.compile(r"^@[\w$.-]+: ")


def same_refusal(before: str, after: str) -> bool:
    """Whether two refusals say the same: equal, but for a `@f: ` in front
    or a context the compiled side puts before the interpreter's message."""
    before, after = _FUNCTION_PREFIX.sub("", before), _FUNCTION_PREFIX.sub("", after)
    return (
        before == after
        or after.endswith(": " + before)
        or before.endswith(": " + after)
    )


def _difference(
    function: func.FuncOp,
    expected: _Outcome,
    actual: _Outcome,
    slack: FunctionRun | None = None,
) -> tuple[str, str] | None:
    """None if two outcomes agree, else ("mismatch" or "error", what).
    `slack`: the extra absolute tolerance of each float result and argument
    (`_conditioning`)."""
    if expected.run is not None and actual.run is not None:
        difference = compare_values(
            expected.run.results,
            actual.run.results,
            "result",
            None if slack is None else slack.results,
        )
        if difference is None:
            difference = _compare_buffer_arguments(
                function,
                expected.run.arguments,
                actual.run.arguments,
                None if slack is None else slack.arguments,
            )
        return None if difference is None else ("mismatch", difference)
    if expected.refusal is not None and actual.refusal is not None:
        if expected.crashed or actual.crashed:
            if expected.crashed:
                return ("error", f"cannot run before the pipeline: {expected.refusal}")
            return ("error", f"cannot run after the pipeline: {actual.refusal}")
        if same_refusal(expected.refusal, actual.refusal):
            return None
        return (
            "mismatch",
            f"both refuse, with different messages: before the pipeline: "
            f"{expected.refusal}; after it: {actual.refusal}",
        )
    if expected.refusal is not None:
        return ("error", f"cannot run before the pipeline: {expected.refusal}")
    return ("error", f"cannot run after the pipeline: {actual.refusal}")


def _compare_buffer_arguments(
    function: func.FuncOp,
    before: list[Any],
    after: list[Any],
    slacks: Sequence[Any | None] | None = None,
) -> str | None:
    """The first difference in an argument that was a memref before the
    pipeline (a tensor argument is a value: it cannot change, but after
    bufferization its buffer may be written in place, as upstream does)."""
    slacks = [None] * len(before) if slacks is None else slacks
    for index, (type_, expected, actual, slack) in enumerate(
        zip(function.function_type.inputs.data, before, after, slacks, strict=True)
    ):
        if not isinstance(type_, MemRefType | UnrankedMemRefType):
            continue
        if (difference := first_difference(expected, actual, slack)) is not None:
            return f"in argument #{index} {difference}"
    return None


# --------------------------------------------------------------------------
# Reads of uninitialised memory
# --------------------------------------------------------------------------


def uninitialised_reads(
    module: ModuleOp,
    name: str,
    inputs: Sequence[Any],
    zero: _Outcome | None = None,
    probes: Sequence[FreshFill] = PROBES,
) -> list[Operation] | None:
    """None if what `@name` does on `inputs` (its results, the memrefs it
    writes, or its refusal) does not change when fresh buffers are filled
    with `probes` instead of zeros (`zero`: the run with zeros, if made);
    else the sites (`FRESH_BUFFER_OPS` ops) whose buffers it reads before
    writing them, found by filling one at a time (none if no single one
    matters, only several together)."""
    function = find_function(module, name)
    sites = [op for op in module.walk() if op.name in FRESH_BUFFER_OPS]
    if not sites:
        return None
    inputs = list(inputs)
    if zero is None:
        zero = _interpret(module, name, inputs)

    def depends(fill: FreshFill) -> bool:
        outcome = _interpret(module, name, inputs, fill)
        if zero.refusal is not None or outcome.refusal is not None:
            return zero.refusal != outcome.refusal
        return _difference(function, zero, outcome) is not None

    showing = next((probe for probe in probes if depends(probe)), None)
    if showing is None:
        return None
    # The fill that showed the dependence first, then the others.
    order = [showing] + [probe for probe in PROBES if probe != showing]
    return [
        site
        for site in sites
        if any(depends(FreshFill(probe.pattern, frozenset({site}))) for probe in order)
    ]


def _function_of(op: Operation) -> str | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent.sym_name.data if parent is not None else None


def describe_site(op: Operation) -> str:
    """`%e (tensor.empty at f.mlir:3:8)`, or `in @f` where the op has no
    location, or `the result of ...` where its result has no name."""
    location = source_location(op)
    where = _function_of(op)
    if location is not None:
        place = f"{op.name} at {location[0]}:{location[1]}:{location[2]}"
    else:
        place = op.name + (f" in @{where}" if where else "")
    hint = op.results[0].name_hint if op.results else None
    return f"%{hint} ({place})" if hint else f"the result of {place}"


def describe_uninitialised_reads(sites: Sequence[Operation]) -> str:
    if not sites:
        return (
            "reads uninitialised memory: what it computes depends on what fresh "
            f"buffers ({', '.join(sorted(FRESH_BUFFER_OPS))}) hold"
        )
    return "reads uninitialised memory of " + " and of ".join(
        describe_site(site) for site in sites
    )


# --------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------


@dataclass
class _Check:
    """What every function's check shares."""

    before: ModuleOp
    after: ModuleOp
    run_after: Runner
    trials: int
    allow_leaks: bool
    random: bool
    """The inputs are random (not given)."""
    first_probes: Sequence[FreshFill]
    """The fills the first trial re-runs each function with before the
    pipeline (none: only a disagreement looks for undefined reads)."""
    fast_math: FastMathMode = "none"
    """How the JIT compiled the module after the pipeline (its tolerance)."""


def _after_reads(check: _Check, name: str, inputs: list[Any]) -> str:
    """`; after the pipeline, it reads uninitialised memory of ...` when the
    program after the pipeline (interpreted) reads fresh buffers."""
    sites = uninitialised_reads(check.after, name, inputs)
    if sites is None:
        return ""
    return f"; after the pipeline, it {describe_uninitialised_reads(sites)}"


def _check_function(
    check: _Check, name: str, trial_inputs: Callable[[int], list[Any]]
) -> FunctionVerdict:
    verdict = FunctionVerdict(name, check.trials)
    try:
        after_function = find_function(check.after, name)
    except InterpretationError:
        verdict.error = "the pipeline removed the function"
        return verdict
    before_function = find_function(check.before, name)
    if len(before_function.function_type.inputs) != len(
        after_function.function_type.inputs
    ):
        verdict.error = "the pipeline changed the number of arguments"
        return verdict
    for trial in range(check.trials):
        inputs = trial_inputs(trial)
        reference = _interpret(check.before, name, inputs)
        if trial == 0 and check.first_probes:
            sites = uninitialised_reads(
                check.before, name, inputs, reference, check.first_probes
            )
            if sites is not None:
                verdict.undefined = f"{describe_uninitialised_reads(sites)} (trial 0)"
                return verdict
        candidate = _attempt(check.run_after, name, inputs)
        problem = _difference(before_function, reference, candidate)
        if (
            problem is not None
            and problem[0] == "mismatch"
            and reference.run is not None
            and candidate.run is not None
        ):
            # Within what a few ulps of input already move? Then the
            # program's conditioning, not the pipeline, explains it.
            slack = conditioning(
                lambda module, moved: _interpret(module, name, moved).run,
                check.before,
                inputs,
                reference.run,
            )
            slack = fast_math_slack(
                check.fast_math, before_function, inputs, reference.run, slack
            )
            if slack is not None:
                problem = _difference(before_function, reference, candidate, slack)
        if problem is None:
            if reference.refusal is not None:
                verdict.refused += 1
                verdict.refusal = verdict.refusal or reference.refusal
                continue
            assert reference.run is not None and candidate.run is not None
            if not check.allow_leaks and len(candidate.run.leaks) > len(
                reference.run.leaks
            ):
                leaks = _describe_leaks(candidate.run.leaks, len(reference.run.leaks))
                verdict.leak = f"{leaks} (trial {trial})"
                return verdict
            continue
        # Before and after disagree: is the program at fault?
        sites = uninitialised_reads(check.before, name, inputs, reference)
        if sites is not None:
            verdict.undefined = f"{describe_uninitialised_reads(sites)} (trial {trial})"
            return verdict
        kind, text = problem
        if reference.refusal is None:
            text += _after_reads(check, name, inputs)
        if kind == "error":
            verdict.error = text
        else:
            verdict.mismatch = f"{text} (trial {trial})"
        return verdict
    if check.random and verdict.refused == check.trials:
        # Agreeing refusals on every random trial: nothing was compared.
        verdict.error = (
            f"cannot run before the pipeline: {verdict.refusal} (nor after it, "
            f"with the same message, on any of the {check.trials} random trials)"
        )
    return verdict


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


def _function_names(module: ModuleOp, entry: str | None, backend: str) -> list[str]:
    if entry is not None:
        try:
            find_function(module, entry)
        except InterpretationError as error:
            raise CheckError(str(error)) from error
        return [entry]
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp)
        and not op.is_declaration
        # Compiled code exposes public functions only.
        and (backend != "jit" or op.sym_visibility != StringAttr("private"))
    ]


def _trial_inputs(
    module: ModuleOp,
    names: list[str],
    inputs: Sequence[Any] | None,
    ranges: Sequence[ValueRange],
    seed: int,
    dim_size: int,
) -> dict[str, Callable[[int], list[Any]]]:
    """How each function gets its inputs on each trial."""
    if inputs is not None:
        if ranges:
            raise CheckError("value ranges are for random inputs, not given ones")
        if len(names) != 1:
            listed = ", ".join(f"@{n}" for n in names) or "none"
            raise CheckError(
                f"inputs are given for one function: name it (the module defines "
                f"{listed})"
            )
        given = list(inputs)
        return {names[0]: lambda trial: [_copy(v) for v in given]}
    makers: dict[str, Callable[[int], list[Any]]] = {}
    used: set[ValueRange] = set()
    for name in names:
        function = find_function(module, name)
        bounds = argument_bounds(function, ranges, dim_size)
        used.update(r for r in ranges if argument_index(function, r) is not None)
        makers[name] = random_trial_inputs(function, bounds, seed, dim_size)
    for value_range in ranges:
        if value_range not in used:
            what = value_range.argument
            what = f"%{what}" if isinstance(what, str) else f"#{what}"
            raise CheckError(
                f"value range {value_range}: no function checked has an argument {what}"
            )
    return makers


def _location_of(op: Operation | None) -> tuple[str, int, int] | None:
    return source_location(op) if op is not None else None


def _apply_pipeline(passes: Sequence[ModulePass], module: ModuleOp) -> None:
    """Apply `passes` to `module` and verify the result, or raise
    `PipelineFailed` saying which pass failed, how, and at which op."""
    ctx = make_context()
    for module_pass in passes:
        name = module_pass.name
        try:
            module_pass.apply(ctx, module)
        except DiagnosticException as error:  # a refusal (or a verifier's)
            raise PipelineFailed(
                _one_line(str(error)),
                _location_of(failing_op(error)),
                outcome="invalid" if isinstance(error, VerifyException) else "refused",
                pass_name=name,
            ) from error
        except Exception as error:  # nobody meant to raise it
            raise PipelineFailed(
                f"internal error in pass '{name}': {type(error).__name__}: "
                f"{first_line(error)}",
                _location_of(failing_op(error)),
                outcome="internal",
                pass_name=name,
            ) from error
    # Each op on its own first, outer ops first: the failing op is located.
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except (DiagnosticException, ValueError) as error:
            raise PipelineFailed(
                f"the pipeline's output does not verify: {_op_message(op, error)}",
                _location_of(op),
                outcome="invalid",
                pass_name=None,
            ) from error
    try:
        module.verify()
    except (DiagnosticException, ValueError) as error:
        raise PipelineFailed(
            f"the pipeline's output does not verify: {_one_line(str(error))}",
            _location_of(failing_op(error)),
            outcome="invalid",
            pass_name=None,
        ) from error


def _op_message(op: Operation, error: BaseException) -> str:
    """Upstream's `'dialect.op' op message`, unless it already says so."""
    message = _one_line(str(error))
    prefix = f"'{op.name}' op "
    return message if message.startswith(prefix) else prefix + message


def _one_line(text: str) -> str:
    """A message on one line: xDSL spreads some over several."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


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
    inputs: Sequence[Any] | None = None,
    ranges: Sequence[ValueRange | str] = (),
    undefined_reads: bool = True,
    fast_math: FastMathMode = "none",
    approximate_math: bool = False,
) -> CheckReport:
    """Apply `pipeline` to a copy of `module` and compare every function (or
    `entry`) before (interpreter) and after (on `backend`) on the same inputs:
    `trials` random ones (`ranges`, as `ValueRange`s or their text, bound
    some arguments), or once on `inputs` (for the one function checked).
    Unless `allow_leaks`, a call that leaks more buffers after the pipeline
    than before fails. Unless not `undefined_reads`, the first trial also
    checks that the function does not read uninitialised memory (a
    disagreement always does). `fast_math` (with `backend="jit"`): how the
    module is compiled, and float results then compare within
    `fast_math_slack`; `approximate_math` (with `backend="jit"`): f32 math
    functions compiled as polynomials (a few ulps), compared within the
    slack of `contract` at least. Raises `CheckError` when it cannot
    start."""
    try:
        check_fast_math_mode(fast_math, "fast_math")
    except ValueError as error:
        raise CheckError(str(error)) from None
    if fast_math != "none" and backend != "jit":
        raise CheckError(
            f"fast_math {fast_math!r} is how compiled code is built: it needs "
            "backend 'jit'"
        )
    if approximate_math and backend != "jit":
        raise CheckError(
            "approximate_math is how compiled code is built: it needs backend 'jit'"
        )
    try:
        module.verify()
    except (DiagnosticException, ValueError) as error:
        raise CheckError(f"the input does not verify: {first_line(error)}") from error
    try:
        value_ranges = [
            r if isinstance(r, ValueRange) else parse_value_range(r) for r in ranges
        ]
    except ValueRangeError as error:
        raise CheckError(str(error)) from error
    try:
        passes = (
            parse_pipeline(pipeline).passes if isinstance(pipeline, str) else pipeline
        )
    except PipelineError as error:
        raise CheckError(str(error)) from error
    transformed = module.clone()
    _apply_pipeline(passes, transformed)
    names = _function_names(module, entry, backend)
    try:
        makers = _trial_inputs(module, names, inputs, value_ranges, seed, dim_size)
    except ValueRangeError as error:
        raise CheckError(str(error)) from error
    check = _Check(
        before=module,
        after=transformed,
        run_after=_runner(transformed, backend, fast_math, approximate_math),
        trials=1 if inputs is not None else trials,
        allow_leaks=allow_leaks,
        random=inputs is None,
        # The interpreter after the pipeline fills with AFTER_FILL already: a
        # function that depends on it disagrees, and is then traced.
        first_probes=(
            ()
            if not undefined_reads
            else [p for p in PROBES if backend == "jit" or p != AFTER_FILL]
        ),
        fast_math=(
            "contract" if approximate_math and fast_math == "none" else fast_math
        ),
    )
    report = CheckReport()
    for name in names:
        report.verdicts.append(_check_function(check, name, makers[name]))
    return report
