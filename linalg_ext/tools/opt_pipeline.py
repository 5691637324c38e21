"""The pass pipeline of `linalg-ext-opt`: reading `-p`, with one-line errors.

xDSL's `PassPipeline.parse_spec` reports an unknown pass, an unknown option or
a bad option value with a Python exception naming dataclass fields
(`use_generic_functions`); here each becomes a `PipelineError` that spells
options as on the command line (`use-generic-functions`) and lists the valid
ones (a bad value is said as every tool says it:
`linalg_ext.pipelines.option_value_problem`).

A pass that is a pipeline itself (`StagedPass`, e.g. `lower-to-llvm`) can be
expanded into its stages, so that `--print-between-passes` and `--time-passes`
show each one.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError

from linalg_ext.pipelines import option_value_problem, syntax_problem
from linalg_ext.transforms.staged import StagedPass


class PipelineError(Exception):
    """A `-p` that cannot be run, said in one line."""


class PassSetupError(Exception):
    """A pass of `-p` raised an exception nobody meant while it was loaded or
    built from its options: a bug, reported as an internal error naming the
    pass (`error` is the exception)."""

    def __init__(self, pass_name: str, error: Exception):
        super().__init__(f"{pass_name}: {type(error).__name__}: {error}")
        self.pass_name = pass_name
        self.error = error


@dataclass(frozen=True)
class Step:
    """One pass as the driver runs and shows it."""

    label: str
    """How the step is named in output (`lower-to-llvm` or, for a stage,
    `convert-scf-to-cf-ext (stage 4/11 of lower-to-llvm)`)."""
    pass_name: str
    """The pass of the `-p` list it belongs to (for internal errors)."""
    run: Callable[[Context, ModuleOp], None]


def hyphenated(name: str) -> str:
    return name.replace("_", "-")


def pass_options(pass_class: type[ModulePass]) -> dict[str, dataclasses.Field[Any]]:
    """Option name as spelt on the command line -> its dataclass field."""
    return {
        hyphenated(f.name): f
        for f in dataclasses.fields(pass_class)
        if f.init and f.name != "name"
    }


def _check_options(pass_class: type[ModulePass], spec: ArgSpec) -> None:
    """Raise a PipelineError for an option the pass does not have or a value
    of the wrong type, naming the option as written."""
    options = pass_options(pass_class)
    for given in spec.parameters:
        option = options.get(hyphenated(given))
        if option is None:
            valid = ", ".join(sorted(options)) if options else "none"
            close = difflib.get_close_matches(hyphenated(given), options, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise PipelineError(
                f"pass '{spec.name}' has no option '{given}'{hint}; "
                f"its options: {valid}"
            )
    problem = option_value_problem(pass_class, spec)
    if problem is not None:
        raise PipelineError(problem)


def _bare_flags_are_true(pass_class: type[ModulePass], spec: ArgSpec) -> ArgSpec:
    """`pass{flag}` sets a boolean option, as in MLIR (xDSL wants `flag=true`)."""
    options = pass_options(pass_class)
    hints = typing.get_type_hints(pass_class)
    parameters = dict(spec.parameters)
    for given, values in spec.parameters.items():
        option = options.get(hyphenated(given))
        if not values and option is not None and hints[option.name] is bool:
            parameters[given] = (True,)
    return ArgSpec(spec.name, parameters)


def parse_passes(
    available: dict[str, Callable[[], type[ModulePass]]], spec: str
) -> list[ModulePass]:
    """The passes of a `-p` pipeline, or a PipelineError saying what is wrong
    with it."""
    try:
        specs = list(parse_pipeline(spec))
    except ArgSpecParseError as error:  # a BaseException: caught by name
        raise PipelineError(syntax_problem(spec, error)) from None
    except ValueError as error:
        raise PipelineError(
            f"cannot parse the pass pipeline '{spec}': {error}"
        ) from None
    passes: list[ModulePass] = []
    for pass_spec in specs:
        loader = available.get(pass_spec.name)
        if loader is None:
            close = difflib.get_close_matches(pass_spec.name, available, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise PipelineError(
                f"unknown pass '{pass_spec.name}'{hint}; --list-passes lists them"
            )
        try:
            passes.append(_make_pass(loader, pass_spec))
        except PipelineError:
            raise
        except Exception as error:
            raise PassSetupError(pass_spec.name, error) from error
    return passes


def _make_pass(
    loader: Callable[[], type[ModulePass]], pass_spec: ArgSpec
) -> ModulePass:
    """The pass `pass_spec` asks for, or a PipelineError saying what is wrong
    with its options."""
    pass_class = loader()
    pass_spec = _bare_flags_are_true(pass_class, pass_spec)
    _check_options(pass_class, pass_spec)
    try:
        made = pass_class.from_pass_spec(pass_spec)
    except (ValueError, TypeError) as error:
        required = ", ".join(
            hyphenated(n) for n in sorted(pass_class.required_fields())
        )
        message = str(error).removeprefix(f"{pass_spec.name}: ")
        raise PipelineError(
            f"pass '{pass_spec.name}': {message}"
            + (f" (required options: {required})" if required else "")
        ) from error
    # Values of the right type may still be wrong (`analysis-heuristic=x`):
    # a pass that can say so before it runs does.
    problems = getattr(made, "option_problems", lambda: [])()
    if problems:
        raise PipelineError(f"pass '{pass_spec.name}': " + "; ".join(problems))
    return made


def build_steps(passes: list[ModulePass], expand_stages: bool) -> list[Step]:
    """One step per pass; with `expand_stages`, one per stage of a
    StagedPass (its final check runs with the last stage)."""
    steps: list[Step] = []
    for pass_ in passes:
        if not (expand_stages and isinstance(pass_, StagedPass)):
            steps.append(Step(pass_.name, pass_.name, pass_.apply))
            continue
        stages = pass_.stages()
        for index, stage in enumerate(stages):
            label = f"{stage.name} (stage {index + 1}/{len(stages)} of {pass_.name})"
            last = index == len(stages) - 1
            steps.append(Step(label, pass_.name, _stage_runner(pass_, stage, last)))
    return steps


def _stage_runner(
    parent: StagedPass, stage: ModulePass, last: bool
) -> Callable[[Context, ModuleOp], None]:
    def run(ctx: Context, module: ModuleOp) -> None:
        parent.run_stage(ctx, module, stage)
        if last:
            parent.finish(module)

    return run


def first_docstring_line(pass_class: type[ModulePass]) -> str:
    """The pass's own one-line description: the first sentence of its class
    docstring (not an inherited one, not dataclass's signature), on one
    line."""
    doc = pass_class.__dict__.get("__doc__") or ""
    if doc.startswith(f"{pass_class.__name__}("):
        return ""
    paragraph = doc.strip().split("\n\n")[0]
    text = " ".join(line.strip() for line in paragraph.splitlines())
    end = re.search(r"\.(\s|$)", text)
    return text[: end.start() + 1] if end else text
