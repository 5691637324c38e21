"""Pass pipelines by name: `xdsl-opt -p` syntax, resolved in every universe.

`parse_pipeline("canonicalize,cse")` finds each pass among the passes of all
installed xDSL universes (xDSL's own, ours through the `xdsl.universe` entry
point, and any other), as `xdsl-opt` does. Checking a pipeline
(`linalg_ext.checking`), the JIT's bufferization (`linalg_ext.jit`), the
tools and the tests all resolve pipelines here, so a name means the same
pass everywhere.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.universe import Universe

from linalg_ext.context import make_context


class PipelineError(Exception):
    """A pipeline that does not parse, or names a pass nobody registers."""


def first_line(error: BaseException) -> str:
    """The first non-blank line of an error's message (xDSL's messages often
    run over several lines), or its type's name if it has none."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def parse_pipeline(spec: str) -> PassPipeline:
    """The pipeline `spec` (`xdsl-opt -p` syntax), or a PipelineError."""
    passes = Universe.get_multiverse().all_passes
    try:
        return PassPipeline.parse_spec(passes, spec)
    except Exception as error:  # xDSL reports bad specs with several types
        raise PipelineError(f"bad pipeline {spec!r}: {first_line(error)}") from error


def apply_pipeline(spec: str, module: ModuleOp) -> None:
    """Run the pipeline `spec` on `module` in place, in a fresh context."""
    PassPipeline(tuple(parse_pipeline(spec).passes)).apply(make_context(), module)
