"""Building `scf` loops, and the constants and extents they need.

Every pass that writes `scf` loops builds them here: `convert-linalg-to-loops-ext`
(a generic's iteration domain), `convert-linalg-ext-to-loops` (each op's
loops, with `scf.if` and `scf.while`), `convert-scf-to-cf-ext`
(`scf.parallel` / `scf.forall` as nests of `scf.for`) and `lower-affine-ext`
(the index arithmetic of maps).

`LoopNestBuilder` is an `xdsl.builder.Builder`: it inserts at its
`insertion_point`, and the ops of a nested region are built by a builder at
the end of that region's block (`at`, sharing everything else). On top:

- constants, built once per lowering: `index(v)`, `constant(v, type)`;
- extents: `extent((value, dim), ...)`, a constant when one of the memrefs
  or tensors has it statically, else `memref.dim` / `tensor.dim` of the
  first (`static_extent` says which, statically);
- loops whose body is a function: `for_loop(upper, inits, body)` builds
  `scf.for` with `iter_args`, calling `body(builder, iv, iter_args)` in the
  loop's block and yielding what it returns; `loop_nest(uppers, inits,
  body)` is a perfect nest, outermost first, with `body(builder, ivs,
  iter_args)` innermost and the `iter_args` threaded through every level
  (with no loop, `body` runs in place). Bounds are SSA values or ints;
  lower bounds default to 0 and steps to 1. The values may be memrefs,
  tensors or scalars alike, e.g. tiles:

      def tile(b, ivs, (acc,)):
          part = b.add(tensor.ExtractSliceOp(...))  # at `ivs`
          ...
          return [b.add(tensor.InsertSliceOp(..., acc, ...))]

      (result,) = b.loop_nest(uppers, [init], tile, steps=tile_sizes)

- `if_then` (`scf.if`), `while_loop` (`scf.while`), `inline` (a copy of a
  one-block region applied to values), `load` / `store` (`memref`).

Hoisting: constants, and extents asked with `hoist=True`, go before
everything the root builder (the one not made by `at`) has built, in the
order they are first asked for; so they dominate every loop of the
lowering. A hoisted extent's value must itself be defined before the
root's start (an operand of the op being lowered, say).

Building detached (`LoopNestBuilder.detached()`, then `take_ops()`) gives
the ops for a `PatternRewriter` to insert where they belong (what the
passes do). A builder at any other insertion point builds in place; inside
a pattern, `builder.extend_from_listener(rewriter)` lets the rewriter see
what it inserts.

The one loop not built here is `memref.copy`'s in the `llvm` dialect
(`memref_copy.emit_loop_nest`: blocks and branches, as it is built after
`scf` is lowered).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import compress

from xdsl.builder import Builder
from xdsl.dialects import affine, arith, memref, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    UnitAttr,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint

IN_BOUNDS = "rtcheck.in_bounds"
"""The discardable attribute of an access proven in bounds by its lowering
(`insert-runtime-checks` does not check it)."""

Bound = int | SSAValue
"""A loop bound or step: an SSA value of type `index`, or a constant."""

Body = Callable[["LoopNestBuilder", SSAValue, tuple[SSAValue, ...]], Sequence[SSAValue]]
"""A loop body: (builder in the loop's block, induction variable, iter_args)
-> the values to yield (as many as there are iter_args)."""

NestBody = Callable[
    ["LoopNestBuilder", tuple[SSAValue, ...], tuple[SSAValue, ...]],
    Sequence[SSAValue],
]
"""A loop nest's innermost body: (builder, induction variables outermost
first, iter_args) -> the values to yield."""


def constant_name(value: int | float | bool, type_: Attribute) -> str:
    """MLIR's names for constants: `%c0`, `%c_neg1` (index), `%c0_i32`,
    `%true`, `%cst` (floats)."""
    if isinstance(type_, AnyFloat):
        return "cst"
    if type_ == i1:
        return "true" if value else "false"
    number = f"{int(value)}" if value >= 0 else f"_neg{-int(value)}"
    return f"c{number}" if isinstance(type_, IndexType) else f"c{number}_{type_}"


def static_extent(*dims: tuple[SSAValue, int]) -> int | None:
    """The extent every `(shaped value, dimension)` pair has, if one's type
    says it."""
    for value, dim in dims:
        assert isinstance(value.type, ShapedType)
        size = value.type.get_shape()[dim]
        if size != DYNAMIC_INDEX:
            return size
    return None


@dataclass(eq=False)
class _Hoisted:
    """What the builders of one lowering hoist: constants and extents, each
    built once, ahead of what the root builder builds."""

    root: Builder
    """The builder they are hoisted ahead of (inserting through it tells
    its listeners, e.g. a `PatternRewriter`'s, about them)."""
    start: InsertPoint
    """Where the root builder started."""
    first_built: Operation | None = None
    """The first op the root builder inserted."""
    last_hoisted: Operation | None = None
    values: dict[tuple[object, object], SSAValue] = field(
        default_factory=dict[tuple[object, object], SSAValue]
    )
    marks_in_bounds: bool = False
    """Whether `load`/`store` mark their op in bounds (run-time checks on:
    the lowering has checked the extents its accesses rely on)."""

    def insert(self, op: Operation) -> SSAValue:
        """Insert `op` after the ops hoisted so far (all before what the
        root built); its first result."""
        if self.last_hoisted is not None:
            where = InsertPoint.after(self.last_hoisted)
        elif self.first_built is not None:
            where = InsertPoint.before(self.first_built)
        else:
            where = self.start
        # Once something is hoisted, `first_built` no longer matters.
        self.root.insert(op, where)
        self.last_hoisted = op
        return op.results[0]

    def note_root_insertion(self, op: Operation) -> None:
        if self.first_built is None:
            self.first_built = op


@dataclass(eq=False)
class LoopNestBuilder(Builder):
    """An `xdsl.builder.Builder` with constants, extents and `scf` loops
    (see the module docstring)."""

    hoisted: _Hoisted = field(init=False)

    def __post_init__(self) -> None:
        self.hoisted = _Hoisted(self, self.insertion_point)
        self.operation_insertion_handler.append(self.hoisted.note_root_insertion)

    @classmethod
    def detached(cls) -> LoopNestBuilder:
        """A builder filling a new block, whose ops `take_ops` hands over."""
        return cls(InsertPoint.at_end(Block()))

    def at(self, insertion_point: InsertPoint) -> LoopNestBuilder:
        """A builder at `insertion_point` (in a region being built) sharing
        this one's hoisted values."""
        nested = LoopNestBuilder(insertion_point)
        nested.operation_insertion_handler.clear()
        nested.hoisted = self.hoisted
        return nested

    def take_ops(self) -> list[Operation]:
        """The ops of this builder's block, detached, for a rewriter to
        insert; the builder then starts afresh."""
        ops = list(self.insertion_point.block.ops)
        for op in ops:
            op.detach()
        self.hoisted.values.clear()
        self.hoisted.first_built = self.hoisted.last_hoisted = None
        return ops

    def add(self, op: Operation, name: str | None = None) -> SSAValue:
        """Insert `op` (which has results); its first result, named
        `name`."""
        self.insert(op)
        if name is not None:
            op.results[0].name_hint = name
        return op.results[0]

    # ----------------------------------------------------------------------
    # Hoisted values

    def constant(self, value: int | float | bool, type_: Attribute) -> SSAValue:
        """`arith.constant` of `type_` (index, integer or float), built once."""
        key = (value, type_)
        if key not in self.hoisted.values:
            if isinstance(type_, AnyFloat):
                op = arith.ConstantOp(FloatAttr(float(value), type_))
            else:
                assert isinstance(type_, IntegerType | IndexType)
                op = arith.ConstantOp(IntegerAttr(int(value), type_))
            op.result.name_hint = constant_name(value, type_)
            self.hoisted.values[key] = self.hoisted.insert(op)
        return self.hoisted.values[key]

    def index(self, value: int) -> SSAValue:
        """`arith.constant value : index`, built once."""
        return self.constant(value, IndexType())

    def bound(self, value: Bound) -> SSAValue:
        """`value` as an SSA value (an int as an index constant)."""
        return self.index(value) if isinstance(value, int) else value

    def extent(
        self, *dims: tuple[SSAValue, int], hoist: bool = False, name: str | None = "dim"
    ) -> SSAValue:
        """The extent every `(memref or tensor, dimension)` pair has: a
        constant when one of them is static, else the `memref.dim` /
        `tensor.dim` of the first, named `name`: built here, or with `hoist`
        once among the hoisted values."""
        size = static_extent(*dims)
        if size is not None:
            return self.index(size)
        value, dim = dims[0]
        if hoist and dims[0] in self.hoisted.values:
            return self.hoisted.values[dims[0]]
        if isinstance(value.type, MemRefType):
            op = memref.DimOp(value, self.index(dim))
        else:
            op = tensor.DimOp(value, self.index(dim))
        if name is not None:
            op.result.name_hint = name
        if not hoist:
            return self.add(op)
        self.hoisted.values[dims[0]] = self.hoisted.insert(op)
        return op.result

    # ----------------------------------------------------------------------
    # Structured control flow

    def for_loop(
        self,
        upper: Bound,
        inits: Sequence[SSAValue],
        body: Body,
        *,
        lower: Bound = 0,
        step: Bound = 1,
        iv: str | None = "i",
        names: Sequence[str] = (),
    ) -> tuple[SSAValue, ...]:
        """`scf.for %iv = lower to upper step step` with `inits` as its
        iter_args; its results, named `names`. The body is built first,
        then the bounds (lower, upper, step) given as ints."""
        block = Block(arg_types=[IndexType(), *(v.type for v in inits)])
        block.args[0].name_hint = iv
        yielded = body(
            self.at(InsertPoint.at_end(block)), block.args[0], tuple(block.args[1:])
        )
        block.add_op(scf.YieldOp(*yielded))
        bounds = (self.bound(lower), self.bound(upper), self.bound(step))
        loop = self.insert(scf.ForOp(*bounds, inits, block))
        for result, result_name in zip(loop.results, names, strict=False):
            result.name_hint = result_name
        return tuple(loop.results)

    def loop_nest(
        self,
        uppers: Sequence[Bound],
        inits: Sequence[SSAValue],
        body: NestBody,
        *,
        lowers: Sequence[Bound] | None = None,
        steps: Sequence[Bound] | None = None,
        ivs: str | None | Sequence[str | None] = "i",
        names: Sequence[str] = (),
    ) -> tuple[SSAValue, ...]:
        """A perfect nest of `scf.for` over `uppers` (outermost first), the
        iter_args threaded through every level (the results of each named
        `names`); with no loop, `body` is called here on `inits`. `ivs`
        names the induction variables: one name for all, or one per loop.
        Int bounds given in `lowers` / `steps` become constants first (all
        lower bounds, then upper, then steps); missing ones (0, 1) as each
        loop is built."""
        if lowers is not None or steps is not None:
            lowers = [self.bound(b) for b in (lowers or [0] * len(uppers))]
            uppers = [self.bound(b) for b in uppers]
            steps = [self.bound(b) for b in (steps or [1] * len(uppers))]
        iv_names = [ivs] * len(uppers) if ivs is None or isinstance(ivs, str) else ivs

        def level(
            builder: LoopNestBuilder,
            depth: int,
            outer: tuple[SSAValue, ...],
            carried: tuple[SSAValue, ...],
        ) -> Sequence[SSAValue]:
            if depth == len(uppers):
                return body(builder, outer, carried)
            return builder.for_loop(
                uppers[depth],
                carried,
                lambda b, iv, values: level(b, depth + 1, (*outer, iv), values),
                lower=lowers[depth] if lowers is not None else 0,
                step=steps[depth] if steps is not None else 1,
                iv=iv_names[depth],
                names=names,
            )

        return tuple(level(self, 0, (), tuple(inits)))

    def if_then(
        self,
        condition: SSAValue,
        result_types: Sequence[Attribute],
        then_body: Callable[[LoopNestBuilder], Sequence[SSAValue]],
        else_body: Callable[[LoopNestBuilder], Sequence[SSAValue]] | None = None,
    ) -> tuple[SSAValue, ...]:
        """`scf.if`, with an else region only if `else_body` is given; each
        body returns the values its region yields."""
        regions: list[Region] = []
        for build in (then_body, else_body):
            if build is None:
                regions.append(Region())
                continue
            block = Block()
            yielded = build(self.at(InsertPoint.at_end(block)))
            block.add_op(scf.YieldOp(*yielded))
            regions.append(Region(block))
        op = self.insert(scf.IfOp(condition, result_types, regions[0], regions[1]))
        return tuple(op.results)

    def while_loop(
        self,
        inits: Sequence[SSAValue],
        condition: Callable[[LoopNestBuilder, tuple[SSAValue, ...]], SSAValue],
        body: Callable[[LoopNestBuilder, tuple[SSAValue, ...]], Sequence[SSAValue]],
        names: Sequence[str] = (),
    ) -> tuple[SSAValue, ...]:
        """`scf.while` passing its arguments (named `names` in both regions)
        unchanged from the condition to the body (and out as results)."""
        types = [v.type for v in inits]
        before, after = Block(arg_types=types), Block(arg_types=types)
        for block in (before, after):
            for arg, arg_name in zip(block.args, names, strict=False):
                arg.name_hint = arg_name
        test = condition(self.at(InsertPoint.at_end(before)), tuple(before.args))
        before.add_op(scf.ConditionOp(test, *before.args))
        yielded = body(self.at(InsertPoint.at_end(after)), tuple(after.args))
        after.add_op(scf.YieldOp(*yielded))
        op = self.insert(scf.WhileOp(inits, types, Region(before), Region(after)))
        return tuple(op.results)

    def inline(self, region: Region, args: Sequence[SSAValue]) -> list[SSAValue]:
        """A copy of the one-block `region` applied to `args`: its ops
        cloned here, the values its terminator yields returned."""
        block = region.block
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args, strict=True))
        terminator = block.last_op
        assert terminator is not None
        for op in block.ops:
            if op is terminator:
                break
            self.insert(op.clone(value_mapper=mapping))
        return [mapping.get(v, v) for v in terminator.operands]

    # ----------------------------------------------------------------------
    # Memory

    def mark_in_bounds(self, enabled: bool = True) -> None:
        """Make `load` and `store` (of this builder and those `at` shares
        its hoisted values with) mark their ops `rtcheck.in_bounds`: the
        lowering has checked the extents its accesses rely on, so
        `insert-runtime-checks` need not check them again."""
        self.hoisted.marks_in_bounds = enabled

    @property
    def marks_in_bounds(self) -> bool:
        """Whether run-time checks are on (see `mark_in_bounds`)."""
        return self.hoisted.marks_in_bounds

    def load(
        self, source: SSAValue, indices: Sequence[SSAValue], name: str | None = None
    ) -> SSAValue:
        """`memref.load source[indices]`, named `name`."""
        op = memref.LoadOp.get(source, indices)
        if self.hoisted.marks_in_bounds:
            op.attributes[IN_BOUNDS] = UnitAttr()
        return self.add(op, name)

    def store(
        self, value: SSAValue, target: SSAValue, indices: Sequence[SSAValue]
    ) -> None:
        """`memref.store value, target[indices]`."""
        op = memref.StoreOp.get(value, target, indices)
        if self.hoisted.marks_in_bounds:
            op.attributes[IN_BOUNDS] = UnitAttr()
        self.insert(op)


def map_indices(
    b: LoopNestBuilder, map_: AffineMap, ivs: Sequence[SSAValue]
) -> list[SSAValue]:
    """The indices `map_` gives at the point `ivs` of a loop nest: an
    induction variable or a constant as they are, any other expression as an
    `affine.apply` of the loops it uses."""
    indices: list[SSAValue] = []
    for expr in map_.results:
        if isinstance(expr, AffineDimExpr):
            indices.append(ivs[expr.position])
        elif isinstance(expr, AffineConstantExpr):
            indices.append(b.index(expr.value))
        else:
            used = [d in expr.used_dims() for d in range(map_.num_dims)]
            single = AffineMap(map_.num_dims, 0, (expr,))
            compact = single.drop_dims(tuple(not u for u in used))
            apply = affine.ApplyOp(list(compress(ivs, used)), AffineMapAttr(compact))
            indices.append(b.add(apply))
    return indices
