"""Execution of Linalg structured ops: `linalg.generic` and the named ops.

Replaces xDSL's functions for them (registered with override=True in
`linalg_ext.running`). xDSL runs a structured op by interpreting its body once
per point of the iteration space (half a minute for one elementwise op on a
1024x1024 tensor), and writes every result of a multi-result generic into the
first output.

Here a body is translated once into numpy operations over whole arrays
(`body.compile_body`); docs/interpreter.md describes which bodies qualify and
how the op is then run (`planning`, `execution`, `vectorised`):

- over the whole iteration space at once (cut into chunks to bound memory),
  when every output is either computed pointwise, or folded over its reduction
  loops with one associative combiner (`acc = addf(acc, f(...))`, ...), or
  simply overwritten;
- one reduction step at a time, vectorised over the loops all outputs share,
  when the body is translatable but combines its accumulators in other ways
  (an argmax, an online softmax);
- point by point on the interpreter otherwise, in the loops' lexicographic
  order, which is the definition.

Named ops with a fixed meaning (matmul, convolutions, transpose, ...) are
computed with numpy directly (`elementwise`, `contractions`, `convolutions`,
`functions`); `linalg.reduce` goes through the same machinery as
`linalg.generic`.

Values keep xDSL's representation (a `ShapedArray` over a bytearray, read and
written through `numpy_view`). Tensor results are new values; memref outputs
are written in place.

The modules, from the bottom up: `scalars` (element types as numpy computes
them), `arith_arrays` (arith and math ops on arrays), `iteration_space`,
`body`, `folding`, `planning`, `computation`, `vectorised`, `execution`, then
the named ops (`named_operands`, `elementwise`, `contractions`,
`convolutions`) and `functions`, which registers them all.
"""

from linalg_ext.semantics.structured.computation import StructuredComputation
from linalg_ext.semantics.structured.execution import (
    STRATEGIES,
    output_aliases_operand,
    run_structured,
    run_structured_op,
    running_points,
    strategy_used,
)
from linalg_ext.semantics.structured.functions import StructuredOpFunctions

__all__ = [
    "STRATEGIES",
    "StructuredComputation",
    "StructuredOpFunctions",
    "output_aliases_operand",
    "run_structured",
    "run_structured_op",
    "running_points",
    "strategy_used",
]
