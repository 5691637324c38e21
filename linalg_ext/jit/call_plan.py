"""Prepared calls: what calling a compiled function does from Python, worked
out once per function, so that a call does the least it can.

A `CallPlan` is made at a function's first call, from its argument and
result types (`linalg_ext.calling_convention` says how each travels):

- the slot of every argument in the packed entry point's int64 array, and a
  packer per argument that writes it there;
- a template of the slots: a memref argument of static shape and identity
  layout has constant sizes, strides and offset, written once;
- per thread, a `_Frame`: the slot array, the result struct and the failure
  context (`linalg_ext.jit.failures`), allocated once and reused, with their
  addresses, so the ctypes call passes plain integers;
- per result, where its fields sit in the result struct, its dtype and,
  when its type fixes them, its shape and strides
  (`linalg_ext.jit.call_results`, which also wraps and copies results).

A call then checks each argument against its type: a numpy array of exactly
the dtype, static shape and row-major strides a static identity-layout
memref wants (writeable when the function may write it) takes the fast
path, which writes only its two pointers; anything else takes the general
path (`calling_convention.array_checker`, the same checks and messages as
before: a wrong dtype, shape, layout or a read-only array is an
`ArgumentError` naming the argument). A scalar is one slot
(`calling_convention.scalar_slot`).

Results come back as before (`JitFunction`'s docstring): a buffer the call
allocated is owned by the numpy array viewing it, a view of an argument
views that argument's array, a constant is copied. With `out=`, the caller
supplies arrays for memref results: each result is copied into its array
(after the call, so an `out` array may also be an argument), the buffer the
call allocated for it is freed at once, and the `out` array itself is
returned: no numpy array, owner or buffer outlives the call. The compiled
code still allocates its result (with `malloc`) and Python frees it right
after copying: functions return fresh buffers by MLIR's convention.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.calling_convention import (
    LIBC,
    ArgumentError,
    array_checker,
    data_pointer,
    python_scalar,
    scalar_slot,
    value_dtype,
)
from linalg_ext.jit.call_results import (
    GLOBAL_MARKER,
    ResultLayout,
    Returned,
    copy_into,
    result_layouts,
    returned_memref,
    row_major,
    view,
)
from linalg_ext.jit.errors import JitError
from linalg_ext.jit.failures import (
    CONTEXT_LIVE_COUNT,
    FAILED,
    failure_message,
    free_live_buffers,
    new_context,
)
from linalg_ext.jit.memory import CallMemory, OwnedBuffer, tracking_call

# --------------------------------------------------------------------------
# Frames


class _Frame:
    """What one call on one thread passes: slots, result, context. Reused
    by the thread's next call (`busy` while a call uses it)."""

    __slots__ = (
        "busy",
        "context",
        "context_address",
        "result",
        "result_address",
        "result_words",
        "slots",
        "slots_address",
        "stale",
    )

    def __init__(self, template: Sequence[int], result_ctype: Any):
        self.slots = (ctypes.c_int64 * max(len(template), 1))(*template)
        self.slots_address = ctypes.addressof(self.slots)
        self.result = result_ctype() if result_ctype is not None else None
        self.result_address = (
            ctypes.addressof(self.result) if self.result is not None else None
        )
        words = ctypes.sizeof(self.result) // 8 if self.result is not None else 0
        self.result_words: Any = (
            (ctypes.c_int64 * words).from_buffer(self.result)
            if words and self.result is not None
            else None
        )
        self.context = new_context()
        self.context_address = ctypes.addressof(self.context)
        self.busy = False
        self.stale = False
        """A packer wrote over the template's constant slots."""


Packer = Callable[[Any, _Frame, dict[int, np.ndarray]], Any]
"""(value, frame, arrays by data pointer) -> what the argument is passed as
(its array, or the value); writes its slots, raises ArgumentError."""


def _memref_packer(
    what: str, type_: MemRefType, written: bool, first: int
) -> tuple[Packer, list[int] | None]:
    """The packer of a memref argument at slot `first`, and its constant
    slots (sizes, strides, offset) when its type fixes them."""
    check = array_checker(what, type_, written)
    shape = tuple(type_.get_shape())
    rank = len(shape)

    def general(value: Any, frame: _Frame, arrays: dict[int, np.ndarray]) -> Any:
        array, offset = check(value)
        pointer = data_pointer(array)
        itemsize = array.itemsize
        frame.slots[first : first + 3 + 2 * rank] = [
            pointer,
            pointer - offset * itemsize,
            offset,
            *array.shape,
            *[stride // itemsize for stride in array.strides],
        ]
        frame.stale = True
        arrays.setdefault(pointer, array)
        return array

    if not isinstance(type_.layout, NoneAttr):
        return general, None
    dtype = value_dtype(type_)
    ndarray = np.ndarray
    if any(e < 0 for e in shape):
        static = [(axis, extent) for axis, extent in enumerate(shape) if extent >= 0]
        end = first + 3 + 2 * rank
        itemsize = dtype.itemsize

        def dynamic(value: Any, frame: _Frame, arrays: dict[int, np.ndarray]) -> Any:
            if (
                type(value) is ndarray
                and value.dtype is dtype
                and value.ndim == rank
                and value.flags.c_contiguous
                and (not written or value.flags.writeable)
            ):
                extents = value.shape
                if all(extents[axis] == extent for axis, extent in static):
                    pointer = data_pointer(value)
                    frame.slots[first:end] = [
                        pointer,
                        pointer,
                        0,
                        *extents,
                        *[stride // itemsize for stride in value.strides],
                    ]
                    arrays.setdefault(pointer, value)
                    return value
            return general(value, frame, arrays)

        return dynamic, None
    byte_strides = tuple(s * dtype.itemsize for s in row_major(shape))
    second = first + 1

    def fixed(value: Any, frame: _Frame, arrays: dict[int, np.ndarray]) -> Any:
        if (
            type(value) is ndarray
            and value.dtype is dtype
            and value.shape == shape
            and value.strides == byte_strides
            and (not written or value.flags.writeable)
        ):
            pointer = data_pointer(value)
            slots = frame.slots
            slots[first] = pointer
            slots[second] = pointer
            arrays.setdefault(pointer, value)
            return value
        return general(value, frame, arrays)

    return fixed, [0, 0, 0, *shape, *row_major(shape)]


def _scalar_packer(what: str, type_: Attribute, index: int) -> Packer:
    try:
        slot = scalar_slot(what, type_)
    except (InterpretationError, NotImplementedError) as error:
        raise ArgumentError(f"{what}: unsupported type {type_}") from error

    def pack(value: Any, frame: _Frame, arrays: dict[int, np.ndarray]) -> Any:
        frame.slots[index] = slot(value)
        return value

    return pack


# --------------------------------------------------------------------------
# The plan


class CallPlan:
    """How to call one compiled function from Python (see the module
    docstring). Safe to use from several threads at once."""

    def __init__(
        self,
        name: str,
        argument_types: Sequence[Attribute],
        result_types: Sequence[Attribute],
        written: Sequence[bool],
        result_ctype: Any,
        entry: Any,
        elapsed: Any,
        tracked: bool,
        turns: threading.Lock | None,
    ):
        """`entry`: the packed entry point; `elapsed`: the `c_int64` it
        writes the call's nanoseconds to; `tracked`: the module tracks
        memory; `turns`: the lock its calls take turns with, if any. Raises
        ArgumentError for an argument type no value can be passed as."""
        self.name = name
        self.entry = entry
        self.elapsed = elapsed
        self.elapsed_address = ctypes.addressof(elapsed)
        self.tracked = tracked
        self.turns = turns
        self.argument_count = len(argument_types)
        self.result_ctype = result_ctype
        self.packers: list[Packer] = []
        template: list[int] = []
        for index, (type_, may_write) in enumerate(
            zip(argument_types, written, strict=True)
        ):
            what = f"argument #{index} of @{name}"
            if isinstance(type_, MemRefType):
                packer, constant = _memref_packer(what, type_, may_write, len(template))
                template += constant or [0] * (3 + 2 * len(type_.get_shape()))
            elif isinstance(type_, IndexType | IntegerType | AnyFloat):
                packer = _scalar_packer(what, type_, len(template))
                template.append(0)
            else:
                raise ArgumentError(f"{what}: unsupported type {type_}")
            self.packers.append(packer)
        self.template = template
        self.results = (
            result_layouts(result_types, result_ctype) if result_types else []
        )
        self.single_fixed: ResultLayout | None = None
        """The one result, when it is a memref of static, nonzero extents."""
        if len(self.results) == 1:
            only = self.results[0]
            if only.is_memref and only.shape is not None and 0 not in only.shape:
                self.single_fixed = only
        self.single_dynamic: ResultLayout | None = None
        """The one result, when it is a memref of identity layout and some
        dynamic extents."""
        if len(self.results) == 1:
            only = self.results[0]
            if (
                isinstance(only.type_, MemRefType)
                and isinstance(only.type_.layout, NoneAttr)
                and only.shape is None
            ):
                self.single_dynamic = only
        self._local = threading.local()

    def frame(self) -> _Frame:
        """This thread's frame, or a new one while it is busy (a call made
        from a finalizer during a call)."""
        frame: _Frame | None = getattr(self._local, "frame", None)
        if frame is None:
            frame = self._local.frame = _Frame(self.template, self.result_ctype)
        elif frame.busy:
            return _Frame(self.template, self.result_ctype)
        return frame

    def call(
        self, arguments: Sequence[Any], out: Any = None
    ) -> tuple[Any, list[Any], CallMemory | None]:
        """Call with `arguments` (as many as the function takes); the
        result(s), what the arguments were passed as, and (tracked) what the
        call allocated and kept. Raises JitError for a refused argument or
        `out`, or a failed call."""
        tracked, turns = self.tracked, self.turns
        into = outs = None
        if out is not None:
            single = self.single_fixed
            if (
                single is not None
                and type(out) is np.ndarray
                and out.dtype is single.dtype
                and out.shape == single.shape
                and out.flags.c_contiguous
                and out.flags.writeable
            ):
                into = out  # the common case, checked fast
            elif self._fits_dynamic(out):
                into = out
            else:
                outs = self._outs(out)
        frame: _Frame | None = getattr(self._local, "frame", None)
        if frame is None or frame.busy:
            frame = self.frame()
        frame.busy = True
        try:
            arrays: dict[int, np.ndarray] = {}
            try:
                passed = [
                    pack(value, frame, arrays)
                    for pack, value in zip(self.packers, arguments, strict=True)
                ]
            except ArgumentError as error:
                raise JitError(str(error)) from error
            frame.context[CONTEXT_LIVE_COUNT] = 0
            call_arguments = (
                frame.slots_address,
                frame.result_address,
                self.elapsed_address,
                frame.context_address,
            )
            if turns is None and not tracked:
                if self.entry(*call_arguments) == FAILED:
                    free_live_buffers(frame.context)
                    raise JitError(failure_message(frame.context))
                return self._results(frame, arrays, into, outs, None), passed, None
            with (
                turns or nullcontext(),
                tracking_call() if tracked else nullcontext() as memory,
            ):
                if self.entry(*call_arguments) == FAILED:
                    if memory is not None:
                        memory.free_all()
                    free_live_buffers(frame.context)
                    raise JitError(failure_message(frame.context))
                return (
                    self._results(frame, arrays, into, outs, memory),
                    passed,
                    memory,
                )
        finally:
            frame.busy = False
            if frame.stale:
                frame.slots[: len(self.template)] = self.template
                frame.stale = False

    # ----------------------------------------------------------------------
    # out=

    def _fits_dynamic(self, out: Any) -> bool:
        """Whether `out` is a row-major writeable array of `single_dynamic`'s
        dtype, rank and static extents (its dynamic ones are checked after
        the call)."""
        layout = self.single_dynamic
        return (
            layout is not None
            and type(out) is np.ndarray
            and out.dtype is layout.dtype
            and out.ndim == layout.rank
            and out.flags.c_contiguous
            and out.flags.writeable
            and all(
                e < 0 or e == s
                for e, s in zip(layout.static_shape, out.shape, strict=True)
            )
        )

    def _outs(self, out: Any) -> list[np.ndarray | None]:
        """`out` as one array or None per result, checked against the result
        types (what the types fix; dynamic extents after the call)."""
        count = len(self.results)
        if isinstance(out, np.ndarray) and count == 1:
            outs: list[Any] = [out]
        elif isinstance(out, tuple | list) and len(out) == count:
            outs = list(out)
        else:
            raise JitError(
                f"out= of @{self.name}: expected "
                + ("an array or " if count == 1 else "")
                + f"a tuple of {count} arrays or None (one per result), "
                f"got {type(out).__name__}"
                + (f" of length {len(out)}" if isinstance(out, tuple | list) else "")
            )
        for index, (array, layout) in enumerate(zip(outs, self.results, strict=True)):
            if array is None:
                continue
            what = f"out #{index} of @{self.name}"
            type_ = layout.type_
            if not isinstance(type_, MemRefType):
                raise JitError(f"{what}: result #{index} is {type_}, not a memref")
            if not isinstance(array, np.ndarray):
                raise JitError(f"{what} is {type(array).__name__}, not a numpy array")
            if array.dtype != layout.dtype:
                raise JitError(
                    f"{what} has dtype {array.dtype}, {type_} needs {layout.dtype}"
                )
            static = layout.static_shape
            if len(static) != array.ndim or any(
                e >= 0 and e != s for e, s in zip(static, array.shape, strict=True)
            ):
                raise JitError(
                    f"{what} has shape {list(array.shape)}, which does not fit {type_}"
                )
            if not array.flags.writeable:
                raise JitError(f"{what} is a read-only array")
        return outs

    # ----------------------------------------------------------------------
    # Results

    def _results(
        self,
        frame: _Frame,
        arrays: dict[int, np.ndarray],
        into: np.ndarray | None,
        outs: list[np.ndarray | None] | None,
        memory: CallMemory | None,
    ) -> Any:
        """The call's results (see the module docstring). `into`: the `out`
        array of `single_fixed`, checked; `outs`: those of `_outs`."""
        if not self.results:
            return None
        tracked = memory is not None
        single = self.single_fixed
        if single is not None and not tracked and outs is None:
            # The common case, fast: one memref of static shape, allocated by
            # the call (not an argument's, not a constant), not empty.
            words = frame.result_words
            first = single.word
            allocated = words[first]
            if allocated and allocated not in arrays and allocated != GLOBAL_MARKER:
                data = words[first + 1] + words[first + 2] * single.itemsize
                if into is not None:
                    ctypes.memmove(data_pointer(into), data, single.nbytes)
                    LIBC.free(allocated)
                    return into
                buffer = single.owned_bytes.from_address(data)
                buffer.allocated = allocated
                array = np.frombuffer(buffer, single.dtype)
                return array if single.rank == 1 else array.reshape(single.shape)
        dynamic = self.single_dynamic
        if dynamic is not None and outs is None:
            # One memref of dynamic extents (identity layout: row-major),
            # allocated by the call, not empty.
            words = frame.result_words
            first = dynamic.word
            allocated = words[first]
            if allocated and allocated not in arrays and allocated != GLOBAL_MARKER:
                extents = tuple(words[first + 3 : first + 3 + dynamic.rank])
                data = words[first + 1] + words[first + 2] * dynamic.itemsize
                nbytes = dynamic.itemsize * prod(extents)
                if into is not None:
                    owner = OwnedBuffer(allocated, tracked, memory)
                    if extents != into.shape:
                        raise JitError(
                            f"out #0 of @{self.name} has shape "
                            f"{list(into.shape)}, the result has shape "
                            f"{list(extents)}"
                        )
                    if nbytes:
                        ctypes.memmove(data_pointer(into), data, nbytes)
                    del owner  # frees the call's buffer
                    return into
                if nbytes:
                    buffer: Any = (ctypes.c_char * nbytes).from_address(data)
                    buffer.owner = OwnedBuffer(allocated, tracked, memory)
                    array = np.frombuffer(buffer, dynamic.dtype)
                    return array if dynamic.rank == 1 else array.reshape(extents)
        if into is not None:
            outs = [into]
        returned: list[Any] = []
        for layout in self.results:
            if not layout.is_memref:
                result: Any = frame.result
                value = (
                    getattr(result, layout.field)
                    if layout.field is not None
                    else result.value
                )
                returned.append(
                    python_scalar(value, layout.type_) if layout.is_f16 else value
                )
            else:
                returned.append(returned_memref(layout, frame.result_words))
        if outs is not None:
            self._check_out_shapes(returned, arrays, outs, memory)
        owners: dict[int, OwnedBuffer] = {}
        values: list[Any] = []
        copied: list[int] = []
        for index, (layout, value) in enumerate(
            zip(self.results, returned, strict=True)
        ):
            if not isinstance(value, Returned):
                values.append(value)
                continue
            target = outs[index] if outs is not None else None
            if target is not None:
                copy_into(target, value, layout.dtype)
                copied.append(value.allocated)
                values.append(target)
                continue
            values.append(
                self._array(value, layout.dtype, arrays, owners, memory, tracked)
            )
        for allocated in copied:
            # A buffer only `out` results came from: nothing else will own it.
            if (
                allocated
                and allocated != GLOBAL_MARKER
                and allocated not in arrays
                and allocated not in owners
            ):
                owners[allocated] = OwnedBuffer(allocated, tracked, memory)
        owners.clear()  # frees the copied buffers (the others live on in arrays)
        return values[0] if len(values) == 1 else tuple(values)

    def _array(
        self,
        value: Returned,
        dtype: np.dtype,
        arrays: dict[int, np.ndarray],
        owners: dict[int, OwnedBuffer],
        memory: CallMemory | None,
        tracked: bool,
    ) -> np.ndarray:
        """A memref result as numpy sees it (see `JitFunction`)."""
        allocated = value.allocated
        if allocated == GLOBAL_MARKER:
            return view(value, dtype, None).copy()
        owner: Any = arrays.get(allocated)
        if owner is not None:
            array = view(value, dtype, owner)
            if not owner.flags.writeable:
                array.flags.writeable = False  # a view of a read-only argument
            return array
        owner = owners.get(allocated)
        if owner is None and allocated:
            owner = owners[allocated] = OwnedBuffer(allocated, tracked, memory)
        return view(value, dtype, owner)

    def _check_out_shapes(
        self,
        returned: list[Any],
        arrays: dict[int, np.ndarray],
        outs: list[np.ndarray | None],
        memory: CallMemory | None,
    ) -> None:
        """JitError when a result's dynamic extents differ from its `out`
        array's, after freeing every buffer the call returned."""
        for index, (value, target) in enumerate(zip(returned, outs, strict=True)):
            if target is None or value.shape == target.shape:
                continue
            freed: set[int] = set()
            for other in returned:
                if (
                    isinstance(other, Returned)
                    and other.allocated
                    and other.allocated != GLOBAL_MARKER
                    and other.allocated not in arrays
                    and other.allocated not in freed
                ):
                    freed.add(other.allocated)
                    OwnedBuffer(other.allocated, memory is not None, memory)
            raise JitError(
                f"out #{index} of @{self.name} has shape {list(target.shape)}, "
                f"the result has shape {list(value.shape)}"
            )
