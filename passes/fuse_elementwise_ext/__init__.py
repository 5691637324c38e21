"""`linalg-fuse-elementwise-ext`: fuse elementwise `linalg.generic` chains.

ByteIR's extension of upstream MLIR's `--linalg-fuse-elementwise-ops`
(seeds 002 and 004; docs/passes/linalg-fuse-elementwise-ext.md):

    %t = linalg.generic {maps = [#id, #id]} ins(%a) outs(%e) { exp }
    %u = linalg.generic {maps = [#id, #id, #id]} ins(%t, %b) outs(%e) { add }

becomes one op computing `exp(a) + b` per element, with no `%t`.

What is fused, and why some pairs are not, is in `fusion.py`; the tidying
around it in `cleanup.py`; fusion through `tensor.collapse_shape` and
`tensor.expand_shape` (by expanding a generic's loops) in `reshape.py`;
input sharing in `shared_input.py`; transposes and broadcasts folded into
the contractions reading them (`permutations-into-contractions`) in
`contraction_operands.py`. Named elementwise ops and `linalg.map` are first
generalised to `linalg.generic` so they take part.

The pass walks each block's ops once, top-down, with a worklist: a fused op
goes back on the worklist to take in its next producer. Every fusion
removes one op, so there are fewer fusions than ops, and each only moves
the consumer's body into the producer's region: a chain of N ops fuses in
time linear in N.
"""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from linalg_ext.transforms.dps import has_pure_tensor_semantics
from linalg_ext.transforms.generalize import ELEMENTWISE_FUNCTIONS, generalize

from .cleanup import (
    break_init_dependency,
    drop_redundant_inputs,
    erase_dead_ops,
    fold_constant_inputs,
    fold_trivial_ops,
    simplify_dims,
)
from .contraction_operands import fold_permutations_into_contractions
from .fusion import NotFused, check_fusion, check_reduction_pays, fuse
from .reshape import (
    bypass_reshape_pair,
    expand_consumer_of_collapse,
    expand_producer_of_expand,
)
from .shared_input import check_sharing, merge, sharing_candidates

ELEMENTWISE_NAMED_OPS = frozenset(
    {op.name for op in ELEMENTWISE_FUNCTIONS}
    | {"linalg.map", "linalg.copy", "linalg.select"}
)
"""The ops generalised to `linalg.generic` so that they fuse (ByteIR's
extension; `linalg.fill` is folded instead, transposes and broadcasts are
left as they are)."""


def _label(op: Operation, number: dict[Operation, int]) -> str:
    """The op's SSA name when it has one, else its position among the
    function's generics."""
    hint = op.results[0].name_hint if op.results else None
    return f"%{hint}" if hint else f"linalg.generic #{number[op]}"


@dataclass
class Fuser:
    diff_shapes: bool
    shared_input: bool
    math_into_reduction: bool = False
    """Fuse producers with costly math into reducing consumers too
    (`check_reduction_pays`)."""
    permutations_into_contractions: bool = False
    """Fold transposes and broadcasts into the contractions that read them
    (`contraction_operands`)."""
    refusals: dict[tuple[Operation, Operation], str] = field(default_factory=dict)
    """Why each pair was not fused: (producer, consumer) or, for input
    sharing, (first, second)."""

    def run(self, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if op.name not in ELEMENTWISE_NAMED_OPS:
                continue
            generic = generalize(op)
            if generic is not None:
                Rewriter.replace_op(op, generic)
        fold_trivial_ops(module)
        simplify_dims(module)
        generics = []
        for op in [op for op in module.walk() if isinstance(op, GenericOp)]:
            if has_pure_tensor_semantics(op):
                break_init_dependency(op)
                if fold_constant_inputs(op):
                    op = drop_redundant_inputs(op)
            generics.append(op)
        self.fuse_producers(generics)
        if self.shared_input:
            merged = self.merge_shared_inputs(module)
            # Merging can put a producer and its consumer together again.
            if merged:
                generics = [o for o in module.walk() if isinstance(o, GenericOp)]
                self.fuse_producers(generics)
        # After the elementwise fusion, which leaves named contractions
        # alone: generalising them first would let computed producers fuse
        # into them.
        if self.permutations_into_contractions:
            fold_permutations_into_contractions(module)
        fold_trivial_ops(module)
        simplify_dims(module)
        erase_dead_ops(module)

    def fuse_producers(self, generics: list[GenericOp]) -> None:
        """Producer–consumer fusion to a fixpoint: each consumer, top-down,
        takes in its producers one by one."""
        worklist = deque(generics)
        while worklist:
            consumer = worklist.popleft()
            if consumer.parent is None:
                continue  # fused away
            fused = self.fuse_one_producer(consumer)
            if fused is not None:
                worklist.appendleft(fused)

    def merge_shared_inputs(self, module: ModuleOp) -> bool:
        """Input-sharing fusion: each generic, top-down, absorbs the next
        generics that read one of its inputs. Whether any merged."""
        merged_any = False
        for op in [o for o in module.walk() if isinstance(o, GenericOp)]:
            if op.parent is None:
                continue
            current = op
            tried: set[tuple[SSAValue, Operation]] = set()
            while True:
                candidates = [
                    (value, partner)
                    for value, partner in sharing_candidates(current)
                    if (value, partner) not in tried
                ]
                if not candidates:
                    break
                value, partner = candidates[0]
                tried.add((value, partner))
                try:
                    check_sharing(current, partner, value)
                except NotFused as reason:
                    self.refusals[(current, partner)] = f"input sharing: {reason}"
                    continue
                self.refusals.pop((current, partner), None)
                current = drop_redundant_inputs(merge(current, partner))
                merged_any = True
        return merged_any

    def fuse_one_producer(self, consumer: GenericOp) -> GenericOp | None:
        """Fuse the first producer of `consumer` that can be fused, looking
        through reshapes (by expanding the consumer or the producer, as
        upstream's reshape folding does); the op that replaced `consumer`,
        or None."""
        for index in range(len(consumer.inputs)):
            # Read afresh: expanding a producer below replaces the operands
            # that named the reshape (the same value may be several inputs).
            value = consumer.inputs[index]
            if not isinstance(value.owner, Operation):
                continue
            if bypass_reshape_pair(consumer, index):
                value = consumer.inputs[index]
            reshape = value.owner
            if isinstance(reshape, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
                source = reshape.src
                if isinstance(source, OpResult) and isinstance(source.op, GenericOp):
                    try:
                        if isinstance(reshape, tensor.CollapseShapeOp):
                            # Not expanded for a fusion that would be refused.
                            self.check_cost(source.op, consumer)
                            # The expanded consumer goes back on the worklist.
                            return expand_consumer_of_collapse(consumer, index)
                        expand_producer_of_expand(reshape)
                    except NotFused as reason:
                        self.refusals[(source.op, consumer)] = str(reason)
                        continue
            try:
                fusion = check_fusion(consumer, index, self.diff_shapes)
                self.check_cost(fusion.producer, consumer)
            except NotFused as reason:
                producer = consumer.inputs[index].owner
                if isinstance(producer, GenericOp):
                    self.refusals[(producer, consumer)] = str(reason)
                continue
            self.refusals.pop((fusion.producer, consumer), None)
            return drop_redundant_inputs(fuse(fusion))
        return None

    def check_cost(self, producer: GenericOp, consumer: GenericOp) -> None:
        """NotFused when fusing would make the compiled code slower."""
        if not self.math_into_reduction:
            check_reduction_pays(producer, consumer)


@dataclass(frozen=True)
class LinalgFuseElementwiseExtPass(ModulePass):
    """Fuse producer `linalg.generic` ops into their elementwise consumers
    (see the module docstring and docs/passes/linalg-fuse-elementwise-ext.md)."""

    name = "linalg-fuse-elementwise-ext"

    shared_input: bool = False
    """Also merge generics that read the same tensor over the same loops
    into one multi-result generic (ByteIR's input-sharing fusion)."""

    diff_shapes: bool = False
    """Fuse even when the producer's result is returned and its shape
    differs from the consumer's (ByteIR's option; false keeps such a
    producer as it is)."""

    math_into_reduction: bool = False
    """Also fuse a producer computing a costly math function (`math.exp`,
    `math.tanh`, ...) into a consumer with reduction loops. Off by default:
    the reduction's in-order loop does not vectorise, so the math would run
    one element at a time there instead of vectorised in the producer's
    parallel loop (softmax: 1.2x slower fused; see `check_reduction_pays`).
    Worth setting only for code compiled with `fast_math="fast"`, where the
    reduction vectorises too."""

    permutations_into_contractions: bool = False
    """Fold a `linalg.transpose` or `linalg.broadcast` (or a generic that
    only moves its input's elements) into the contraction reading it
    (`linalg.matmul`, `batch_matmul`, a multiply-accumulate generic): the
    contraction, generalised, reads the source through a permuted map, and
    the micro-kernel packs it from there. A transpose of a constant weight
    (GEMM with transB) or of an activation (attention's Q·Kᵀ) is then no
    longer computed on every call."""

    report: bool = False
    """Print one line per producer–consumer pair not fused, with the reason,
    to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuser = Fuser(
            self.diff_shapes,
            self.shared_input,
            self.math_into_reduction,
            self.permutations_into_contractions,
        )
        fuser.run(op)
        if self.report:
            self.print_report(op, fuser)

    @staticmethod
    def print_report(module: ModuleOp, fuser: Fuser) -> None:
        for function in module.walk():
            if not isinstance(function, func.FuncOp):
                continue
            generics = [o for o in function.walk() if isinstance(o, GenericOp)]
            number: dict[Operation, int] = {op: n for n, op in enumerate(generics)}

            for (producer, consumer), reason in fuser.refusals.items():
                if producer in number and consumer in number:
                    print(
                        f"linalg-fuse-elementwise-ext: @{function.sym_name.data}: "
                        f"{_label(producer, number)} into "
                        f"{_label(consumer, number)} not fused: "
                        f"{reason}",
                        file=sys.stderr,
                    )
