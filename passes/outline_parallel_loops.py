"""`outline-parallel-loops-ext`: each outermost 1-D `scf.parallel` of a
function becomes a call that the JIT's thread runtime runs on several cores.

    scf.parallel (%i) = (%lo) to (%hi) step (%st) {
      ... uses %a (memref), %x (f32), %c4 (a constant) ...
      scf.reduce
    }

becomes, with `@__lx_parallel_body_0` and the declaration
`@__lx_parallel_launch_0` added to the module,

    func.call @__lx_parallel_launch_0(%a, %x, %lo, %hi, %st)
        : (memref<...>, f32, index, index, index) -> ()

    func.func private @__lx_parallel_body_0(%a: memref<...>, %x: f32,
                                            %from: index, %to: index) {
      %c4 = arith.constant 4 : index          // constants are cloned
      scf.for %i = %from to %to step %st' { ... }
      func.return
    }
    func.func private @__lx_parallel_launch_0(memref<...>, f32, index, index, index)

The values the loop uses from outside are the body's arguments (memrefs,
integers, indices and floats), the step included, except those computed by
side-effect-free ops (constants, `memref.dim`, index arithmetic, views),
which are computed again in the body from what they need: LLVM then still
sees that a bound is the extent a load is checked against. The JIT
(`compile_module(threads=N)`, linalg_ext/jit/parallel.py) defines each
launch: it splits the iterations into N chunks and runs the body on each,
on its own thread, then joins them.

A loop is left as it is (and still runs, sequentially) when it is nested in
another `scf.parallel`, has several induction variables or reductions, or
uses a value the body cannot take as an argument. The pass has no options;
only the JIT can run its output (the launches are external).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

BODY_PREFIX = "__lx_parallel_body_"
"""Name prefix of an outlined loop body."""

LAUNCH_PREFIX = "__lx_parallel_launch_"
"""Name prefix of the external function that runs a body on threads."""


def _passable(value: SSAValue) -> bool:
    """A value the body can take as an argument."""
    return isinstance(value.type, MemRefType | IndexType | IntegerType | AnyFloat)


def _cloneable(op: Operation) -> bool:
    """An op the body can compute again itself: no regions, no effects."""
    return not op.regions and is_side_effect_free(op)


def _captures(loop: scf.ParallelOp) -> tuple[list[SSAValue], list[Operation]] | None:
    """(arguments, ops to clone, in order) for the values `loop`'s body uses
    from outside; None if one can be neither."""
    arguments: list[SSAValue] = []
    clones: list[Operation] = []
    seen: set[SSAValue] = set()

    def take(value: SSAValue) -> bool:
        if value in seen:
            return True
        seen.add(value)
        owner = value.owner
        if isinstance(owner, Operation) and _cloneable(owner):
            # Computed again in the body from what it needs (constants,
            # extents, index arithmetic, views): LLVM then still sees, say,
            # that a loop bound is the extent the loads are checked against,
            # and hoists the checks out of the loop.
            if all(take(operand) for operand in owner.operands):
                if owner not in clones:
                    clones.append(owner)
                return True
        if _passable(value):
            arguments.append(value)
            return True
        return False

    for op in loop.body.walk():
        for operand in op.operands:
            if not _defined_inside(operand, loop) and not take(operand):
                return None
    step = loop.step[0]
    if not take(step):
        return None
    return arguments, clones


def _defined_inside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        return parent is not None and (parent is loop or loop.is_ancestor(parent))
    return loop.is_ancestor(owner)


def _outermost_loops(function: func.FuncOp) -> list[scf.ParallelOp]:
    loops: list[scf.ParallelOp] = []
    for op in function.body.walk():
        if not isinstance(op, scf.ParallelOp):
            continue
        parent = op.parent_op()
        nested = False
        while parent is not None and parent is not function:
            if isinstance(parent, scf.ParallelOp):
                nested = True
                break
            parent = parent.parent_op()
        if not nested:
            loops.append(op)
    return loops


def _outline(
    module: ModuleOp, loop: scf.ParallelOp, index: int
) -> tuple[func.FuncOp, func.FuncOp] | None:
    """The body function and launch declaration of `loop`, the loop replaced
    by the launch's call; None if `loop` stays."""
    if len(loop.body.block.args) != 1 or loop.initVals:
        return None
    captured = _captures(loop)
    if captured is None:
        return None
    arguments, clones = captured
    body_name, launch_name = f"{BODY_PREFIX}{index}", f"{LAUNCH_PREFIX}{index}"
    types = [v.type for v in arguments]
    block = Block(arg_types=[*types, IndexType(), IndexType()])
    mapping: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args, strict=False))
    for op in clones:
        copy = op.clone(value_mapper=mapping)
        block.add_op(copy)
    first, last = block.args[-2], block.args[-1]
    first.name_hint, last.name_hint = "from", "to"
    step = mapping[loop.step[0]]
    loop_block = Block(arg_types=[IndexType()])
    (old_iv,) = loop.body.block.args
    loop_block.args[0].name_hint = old_iv.name_hint
    mapping[old_iv] = loop_block.args[0]
    for op in loop.body.block.ops:
        if isinstance(op, scf.ReduceOp):
            continue
        loop_block.add_op(op.clone(value_mapper=mapping))
    loop_block.add_op(scf.YieldOp())
    block.add_op(scf.ForOp(first, last, step, [], loop_block))
    block.add_op(func.ReturnOp())
    body = func.FuncOp(
        body_name,
        ([*types, IndexType(), IndexType()], []),
        Region(block),
        visibility="private",
    )
    launch_types = [*types, IndexType(), IndexType(), IndexType()]
    launch = func.FuncOp.external(launch_name, launch_types, [])
    launch.sym_visibility = StringAttr("private")
    call = func.CallOp(
        launch_name,
        [*arguments, loop.lowerBound[0], loop.upperBound[0], loop.step[0]],
        [],
    )
    Rewriter.replace_op(loop, call)
    module.body.block.add_op(body)
    module.body.block.add_op(launch)
    return body, launch


@dataclass(frozen=True)
class OutlineParallelLoopsPass(ModulePass):
    """Outline each outermost 1-D `scf.parallel` into a body function and a
    call to an external launch (see the module docstring)."""

    name = "outline-parallel-loops-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        taken = {
            f.sym_name.data for f in op.body.block.ops if isinstance(f, func.FuncOp)
        }
        index = 0
        functions = [
            f
            for f in op.body.block.ops
            if isinstance(f, func.FuncOp)
            and not f.is_declaration
            and not f.sym_name.data.startswith(BODY_PREFIX)
        ]
        for function in functions:
            for loop in _outermost_loops(function):
                while f"{BODY_PREFIX}{index}" in taken:
                    index += 1
                if _outline(op, loop, index) is not None:
                    taken |= {f"{BODY_PREFIX}{index}", f"{LAUNCH_PREFIX}{index}"}
                    index += 1
