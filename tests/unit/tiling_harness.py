"""The contract of a `TilingModel`, checked by execution.

`check_tile(text, op_name, offsets, sizes)` parses a module whose `@main`
holds one `op_name` op, asks the op's model for the tile (offsets, sizes) of
its iteration space, and makes `@main` also return, for every result, the
tiled op's result and the slice of the whole result at
`result_tile_position`; running it on random inputs, the two must agree.
`check_result_tile` does the same for `result_tile` (the producer side of
fusion). `dynamic=True` passes offsets and sizes as SSA values (constants the
model cannot see through), so the dynamic paths are exercised too.

Used by the test of each model family (`test_tiling_*.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from helpers import parse_module
from linalg_ext.comparison import compare_values
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tiling import TiledOp, tiling_model
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value
from linalg_ext.transforms.slices import extract_slice


def find_op(module: ModuleOp, op_name: str) -> Operation:
    found = [op for op in module.walk() if op.name == op_name]
    assert len(found) == 1, f"expected one {op_name}, found {len(found)}"
    return found[0]


def mixed_values(values: Sequence[int], dynamic: bool, new_ops: list[Operation]):
    return [as_index_value(v, new_ops) if dynamic else v for v in values]


def return_also(
    module: ModuleOp, op: Operation, pairs: list[tuple[SSAValue, SSAValue]]
):
    function = find_function(module, "main")
    terminator = function.body.block.last_op
    assert isinstance(terminator, func.ReturnOp)
    extra = [v for pair in pairs for v in pair]
    new_return = func.ReturnOp(*terminator.operands, *extra)
    Rewriter.replace_op(terminator, new_return)
    function.function_type = FunctionType.from_lists(
        function.function_type.inputs.data, [v.type for v in new_return.operands]
    )


def _build(
    module: ModuleOp,
    op: Operation,
    make: Callable[[list[Operation]], TiledOp],
    positions: Callable[[int, list[Operation]], tuple[list[Mixed], list[Mixed]]],
) -> int:
    new_ops: list[Operation] = []
    tiled: TiledOp = make(new_ops)
    pairs: list[tuple[SSAValue, SSAValue]] = []
    for index, result in enumerate(op.results):
        offsets, sizes = positions(index, new_ops)
        whole_tile = extract_slice(result, offsets, sizes)
        new_ops.append(whole_tile)
        pairs.append((tiled.results[index], whole_tile.result))
    Rewriter.insert_op(new_ops, InsertPoint.after(op))
    return_also(module, op, pairs)
    module.verify()
    return len(pairs)


def compare_extra_results(module: ModuleOp, count: int, trials: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    function = find_function(module, "main")
    for trial in range(trials):
        run = run_function(module, "main", random_inputs(function, rng))
        extra = run.results[len(run.results) - 2 * count :]
        tiled, whole = extra[0::2], extra[1::2]
        difference = compare_values(whole, tiled, "result tile")
        assert difference is None, f"{difference} (trial {trial})"


def check_tile(
    text: str,
    op_name: str,
    offsets: Sequence[int],
    sizes: Sequence[int],
    *,
    dynamic: bool = False,
    trials: int = 2,
    seed: int = 0,
) -> ModuleOp:
    """The tile the model builds for (offsets, sizes) computes what the whole
    op computes there. Returns the module (with the tile) for more checks."""
    module = parse_module(text)
    op = find_op(module, op_name)
    model = tiling_model(op)
    assert model is not None, f"no tiling model for {op_name}"
    holder: dict[str, list[Mixed]] = {}

    def make(new_ops: list[Operation]) -> TiledOp:
        holder["offsets"] = mixed_values(offsets, dynamic, new_ops)
        holder["sizes"] = mixed_values(sizes, dynamic, new_ops)
        return model.tile(op, holder["offsets"], holder["sizes"], new_ops)

    def positions(index: int, new_ops: list[Operation]):
        return model.result_tile_position(
            op, index, holder["offsets"], holder["sizes"], new_ops
        )

    count = _build(module, op, make, positions)
    compare_extra_results(module, count, trials, seed)
    return module


def check_result_tile(
    text: str,
    op_name: str,
    result_index: int,
    offsets: Sequence[int],
    sizes: Sequence[int],
    *,
    dynamic: bool = False,
    trials: int = 2,
    seed: int = 0,
) -> ModuleOp:
    """`result_tile` for the tile (offsets, sizes) of result `result_index`
    computes what the whole op computes there (only that result is
    compared: the others are tiles of the iteration tile, checked by
    `check_tile`)."""
    module = parse_module(text)
    op = find_op(module, op_name)
    model = tiling_model(op)
    assert model is not None, f"no tiling model for {op_name}"
    new_ops: list[Operation] = []
    mixed_offsets = mixed_values(offsets, dynamic, new_ops)
    mixed_sizes = mixed_values(sizes, dynamic, new_ops)
    tiled = model.result_tile(op, result_index, mixed_offsets, mixed_sizes, new_ops)
    whole_tile = extract_slice(op.results[result_index], mixed_offsets, mixed_sizes)
    new_ops.append(whole_tile)
    Rewriter.insert_op(new_ops, InsertPoint.after(op))
    return_also(module, op, [(tiled.results[result_index], whole_tile.result)])
    module.verify()
    compare_extra_results(module, 1, trials, seed)
    return module
