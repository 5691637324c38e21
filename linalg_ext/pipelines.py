"""Pass pipelines by name: `xdsl-opt -p` syntax, resolved in every universe.

`parse_pipeline("canonicalize,cse")` finds each pass among the passes of all
installed xDSL universes (xDSL's own, ours through the `xdsl.universe` entry
point, and any other), as `xdsl-opt` does. Checking a pipeline
(`linalg_ext.checking`), the JIT's bufferization (`linalg_ext.jit`), the
tools and the tests all resolve pipelines here, so a name means the same
pass everywhere.

An option value its pass's option type refuses is said here, in one line,
the same for every tool: `pass 'fuse-pad': option 'fill' expects one of
full, border, got 'diagonal'` (`option_value_problem`; the choices come from
the option's `Literal[...]` type, which xDSL's option parser enforces).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.arg_spec import parse_pipeline as parse_pass_specs
from xdsl.utils.exceptions import ArgSpecParseError

from linalg_ext.context import make_context


class PipelineError(Exception):
    """A pipeline that does not parse, or names a pass nobody registers."""


def first_line(error: BaseException) -> str:
    """The first non-blank line of an error's message (xDSL's messages often
    run over several lines), or its type's name if it has none."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def describe_type(hint: Any) -> str:
    """What a value of an option's type looks like, for an error message."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return "one of " + ", ".join(str(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(
            describe_type(a) for a in typing.get_args(hint) if a is not type(None)
        )
    if origin is tuple:
        args = typing.get_args(hint)
        return f"a comma-separated list of {_plural(args[0])}" if args else "a list"
    return {
        bool: "true or false",
        int: "an integer",
        float: "a number",
        str: "a string",
    }.get(hint, str(hint))


def _plural(hint: Any) -> str:
    return {bool: "booleans", int: "integers", float: "numbers", str: "strings"}.get(
        hint, describe_type(hint)
    )


def _spell_value(values: tuple[Any, ...]) -> str:
    return ",".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def option_value_problem(pass_class: type[ModulePass], spec: ArgSpec) -> str | None:
    """The first value in `spec` that the type of its option refuses (as
    xDSL's option parser converts values), said in one line with the option
    spelt as on the command line, or None. Options the pass does not have
    are left to the caller."""
    from xdsl.utils.arg_spec import (  # xDSL's own value conversion
        _convert_arg_to_type,  # pyright: ignore[reportPrivateUsage]
    )

    fields = {f.name: f for f in dataclasses.fields(pass_class) if f.init}
    hints = typing.get_type_hints(pass_class)
    for given, values in spec.parameters.items():
        field = fields.get(given.replace("-", "_"))
        if field is None or field.name == "name":
            continue
        hint = hints[field.name]
        try:
            _convert_arg_to_type(values, hint)
        except (ValueError, TypeError):
            return (
                f"pass '{spec.name}': option '{field.name.replace('_', '-')}' "
                f"expects {describe_type(hint)}, got "
                f"'{_spell_value(values) or '(no value)'}'"
            )
    return None


def syntax_problem(spec: str, error: ArgSpecParseError) -> str:
    """xDSL's multi-line report of a pipeline it cannot read, as one line:
    where (the column of the `^` under the spec) and what."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    what = lines[-1].strip() if lines else "syntax error"
    caret = next((line for line in lines if line.strip() == "^"), None)
    column = caret.index("^") + 1 if caret is not None else 0
    return f"cannot parse the pass pipeline '{spec}' at column {column}: {what}"


def parse_pipeline(spec: str) -> PassPipeline:
    """The pipeline `spec` (`xdsl-opt -p` syntax), or a PipelineError."""
    passes = Universe.get_multiverse().all_passes
    try:
        for pass_spec in parse_pass_specs(spec):
            if pass_spec.name in passes:
                problem = option_value_problem(passes[pass_spec.name](), pass_spec)
                if problem is not None:
                    raise PipelineError(f"bad pipeline {spec!r}: {problem}")
        return PassPipeline.parse_spec(passes, spec)
    except PipelineError:
        raise
    except ArgSpecParseError as error:  # a BaseException: caught by name
        raise PipelineError(f"bad pipeline: {syntax_problem(spec, error)}") from None
    except Exception as error:  # xDSL reports bad specs with several types
        raise PipelineError(f"bad pipeline {spec!r}: {first_line(error)}") from error


def apply_pipeline(spec: str, module: ModuleOp) -> None:
    """Run the pipeline `spec` on `module` in place, in a fresh context."""
    PassPipeline(tuple(parse_pipeline(spec).passes)).apply(make_context(), module)
