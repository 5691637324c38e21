"""Running functions of a module on the CPU interpreter, with numpy values.

`run_function` is the one entry point tools and tests use: numpy arrays (or
Python scalars) in, numpy arrays (or scalars) out, plus the arguments as the
call left them, which is where a memref-form function's results are, and
the buffers the call allocated and did not free (`leaks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.interpreter import Interpreter
from xdsl.interpreters.affine import AffineFunctions
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.cf import CfFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.linalg import LinalgFunctions
from xdsl.interpreters.math import MathFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.tensor import TensorFunctions
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.argument_values import ArgumentValueError, argument_value
from linalg_ext.semantics import LinalgExtFunctions, UpstreamOpFunctions
from linalg_ext.semantics.arrays import (
    canonical_i1,
    is_i1,
    numpy_dtype,
    numpy_view,
    shaped_array,
)
from linalg_ext.semantics.bufferization_ops import BufferizationOpFunctions
from linalg_ext.semantics.ccl_ops import CclFunctions
from linalg_ext.semantics.cf_ops import CfOpFunctions
from linalg_ext.semantics.compat_ops import CompatOpFunctions
from linalg_ext.semantics.control_ops import ControlOpFunctions
from linalg_ext.semantics.extended_arith_ops import ExtendedArithFunctions
from linalg_ext.semantics.index_ops import IndexFunctions
from linalg_ext.semantics.memref_ops import MemRefOpFunctions, allocation_tracker
from linalg_ext.semantics.opdsl_ops import OpDslFunctions
from linalg_ext.semantics.runtime_check_ops import RuntimeCheckFunctions
from linalg_ext.semantics.scalar_ops import ScalarOpFunctions
from linalg_ext.semantics.structured import StructuredOpFunctions
from linalg_ext.semantics.tensor_ops import TensorOpFunctions
from linalg_ext.semantics.upstream_linalg_ops import UpstreamLinalgFunctions
from linalg_ext.semantics.vector_ops import VectorOpFunctions
from linalg_ext.shaped import element_type_or_self

INDEX_BITWIDTH = 64


def stock_interpreter(module: ModuleOp) -> Interpreter:
    """An interpreter with xDSL's own functions only (the baseline of
    `make bench`)."""
    interpreter = Interpreter(module, index_bitwidth=INDEX_BITWIDTH)
    for functions in (
        AffineFunctions(),
        ArithFunctions(),
        BuiltinFunctions(),
        CfFunctions(),
        FuncFunctions(),
        LinalgFunctions(),
        MathFunctions(),
        MemRefFunctions(),
        ScfFunctions(),
        TensorFunctions(),
    ):
        interpreter.register_implementations(functions)
    return interpreter


def make_interpreter(module: ModuleOp) -> Interpreter:
    """An interpreter over `module` that knows xDSL's ops and ours."""
    interpreter = stock_interpreter(module)
    interpreter.register_implementations(LinalgExtFunctions())
    interpreter.register_implementations(RuntimeCheckFunctions())
    # Ours replace xDSL's where both exist.
    for functions in (
        ScalarOpFunctions(),
        UpstreamOpFunctions(),
        StructuredOpFunctions(),
        TensorOpFunctions(),
        MemRefOpFunctions(),
        BufferizationOpFunctions(),
        ControlOpFunctions(),
        CompatOpFunctions(),
        # After CompatOpFunctions: its scf.forall runs the loops whose
        # iterations are the replicas of a ccl.all_reduce.
        CclFunctions(),
        UpstreamLinalgFunctions(),
        OpDslFunctions(),
        CfOpFunctions(),
        ExtendedArithFunctions(),
        IndexFunctions(),
        # Last: its arith.constant runs vector constants, the others as
        # TensorOpFunctions does.
        VectorOpFunctions(),
    ):
        interpreter.register_implementations(functions, override=True)
    return interpreter


@dataclass
class FunctionRun:
    results: list[Any]
    """The returned values, shaped ones as numpy arrays."""
    arguments: list[Any]
    """The arguments after the call: memrefs as the function left them."""
    leaks: list[str] = field(default_factory=list[str])
    """The `memref.alloc` buffers still live after the call that no result
    is (or is a view of): a returned buffer is the caller's. One description
    each: `shape (4, 4) allocated by memref.alloc %t in @f`."""


def _to_python(value: Any, type_: Attribute) -> Any:
    """A value as the caller sees it: a numpy copy of a shaped value, an i1
    true as 1 (as upstream stores it; xDSL's interpreter also uses -1)."""
    element = element_type_or_self(type_)
    if isinstance(value, ShapedArray):
        array = numpy_view(value).copy()
        return canonical_i1(array) if is_i1(element) else array
    if is_i1(element):
        return 1 if value else 0
    return value


def find_function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise InterpretationError(f"no function @{name} in the module")


def run_function(module: ModuleOp, name: str, inputs: Sequence[Any]) -> FunctionRun:
    """Call `@name` with `inputs` (numpy arrays for shaped arguments), each
    converted as `linalg_ext.argument_values` says (the rule of every
    backend): a value it refuses is an InterpretationError saying why."""
    function = find_function(module, name)
    arg_types = function.function_type.inputs.data
    if len(inputs) != len(arg_types):
        raise InterpretationError(
            f"@{name} takes {len(arg_types)} arguments, got {len(inputs)}"
        )
    arguments: list[Any] = []
    for index, (value, type_) in enumerate(zip(inputs, arg_types, strict=True)):
        try:
            converted = argument_value(value, type_, f"argument #{index} of @{name}")
        except ArgumentValueError as error:
            raise InterpretationError(str(error)) from None
        if isinstance(type_, TensorType | MemRefType):
            converted = shaped_array(
                converted, type_.get_element_type(), INDEX_BITWIDTH
            )
        arguments.append(converted)
    interpreter = make_interpreter(module)
    tracker = allocation_tracker(interpreter)
    for index, value in enumerate(arguments):
        if isinstance(value, ShapedArray):
            tracker.note(value, f"argument #{index} of @{name}")
    results = interpreter.call_op(name, tuple(arguments))
    result_types = function.function_type.outputs.data
    return FunctionRun(
        results=[_to_python(r, t) for r, t in zip(results, result_types, strict=True)],
        arguments=[_to_python(a, t) for a, t in zip(arguments, arg_types, strict=True)],
        leaks=[a.describe() for a in tracker.leaks(list(results))],
    )


DEFAULT_DIM_SIZE = 4
"""The extent random inputs give a dynamic (`?`) dimension."""


def _random_elements(
    element_type: Attribute, shape: tuple[int, ...], rng: np.random.Generator
) -> np.ndarray:
    """Floats in [-1, 1]; integers small and signed; i1 0 or 1; index small
    and non-negative (they are often sizes or offsets)."""
    if isinstance(element_type, AnyFloat):
        values = rng.uniform(-1.0, 1.0, size=shape)
    elif isinstance(element_type, IndexType):
        values = rng.integers(0, 4, size=shape)
    elif isinstance(element_type, IntegerType) and element_type.width.data == 1:
        values = rng.integers(0, 2, size=shape)
    elif isinstance(element_type, IntegerType):
        values = rng.integers(-4, 5, size=shape)
    else:
        raise InterpretationError(f"cannot make random values of type {element_type}")
    return values.astype(numpy_dtype(element_type, INDEX_BITWIDTH))


def random_inputs(
    function: func.FuncOp,
    rng: np.random.Generator,
    dim_size: int = DEFAULT_DIM_SIZE,
) -> list[Any]:
    """Random arguments for `function`: numpy arrays for shaped arguments (every
    dynamic extent `dim_size`), Python scalars for scalar ones."""
    inputs: list[Any] = []
    for index, type_ in enumerate(function.function_type.inputs.data):
        try:
            if isinstance(type_, TensorType | MemRefType):
                shape = tuple(dim_size if e < 0 else e for e in type_.get_shape())
                inputs.append(_random_elements(type_.get_element_type(), shape, rng))
            else:
                inputs.append(_random_elements(type_, (), rng).item())
        except InterpretationError as error:
            raise InterpretationError(
                f"argument #{index} of @{function.sym_name.data}: {error}"
            ) from error
    return inputs
