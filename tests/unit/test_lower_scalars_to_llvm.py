"""The scalar lowerings to LLVM compute what the interpreter computes.

Every op that `convert-arith-to-llvm`, `convert-math-to-llvm`,
`convert-index-to-llvm`, `convert-cf-to-llvm` and `convert-func-to-llvm`
convert is put in a one-op function (or a small program, for branches and
calls); the module is compiled natively (`linalg_ext.jit`, whose
`lower-to-llvm` runs these passes, unoptimized and at -O3) and each function
is called on inputs chosen for the op (negatives, zeros, extremes, NaN,
infinities; none where the op is undefined) and compared with
`linalg_ext.running`'s interpreter. Ops whose result IEEE or LLVM defines
exactly (arithmetic, rounding, casts, min/max with signed zeros) must agree
bit for bit; libm functions within `linalg_ext.comparison`'s tolerance.

The last tests compare our lowering of each op with mlir-opt-22's, where
both must produce the same LLVM dialect op; they are skipped without it.
"""

from __future__ import annotations

import itertools
import math
import shutil
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from linalg_ext.comparison import first_difference
from linalg_ext.compat.index_ops import Index
from linalg_ext.context import make_context
from linalg_ext.running import make_interpreter
from linalg_ext.semantics.cf_ops import CfOpFunctions
from linalg_ext.semantics.extended_arith_ops import ExtendedArithFunctions
from linalg_ext.semantics.index_ops import IndexFunctions

# --------------------------------------------------------------------------
# Values

WIDTHS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
FLOATS = {"f32": np.float32, "f64": np.float64}


def integers(type_: str) -> list[int]:
    """Edge values of an integer type: 0, ±1, small, and the extremes."""
    width = WIDTHS[type_]
    if width == 1:
        return [0, -1]
    low, high = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return sorted({0, 1, -1, 2, -3, 7, -100 % (high + 1), high, low, high - 1, low + 1})


FLOAT_VALUES = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    -2.5,
    3.75,
    1e-3,
    -7e5,
    1e30,
    math.inf,
    -math.inf,
    math.nan,
]


def floats(type_: str) -> list[float]:
    return [float(FLOATS[type_](v)) for v in FLOAT_VALUES]


def to_signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


# --------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    """A function `@name` of the test module and the inputs it runs on."""

    name: str
    signature: str
    body: str
    inputs: list[tuple[Any, ...]]
    exact: bool = True
    """Compare bits (else with linalg_ext.comparison's tolerance)."""
    result_types: list[str] = field(default_factory=list[str])
    reference: Callable[..., list[Any]] | None = None
    """What the results are, computed in Python (for ops whose interpreter
    function this project adds)."""

    def text(self) -> str:
        return f"func.func @{self.name}{self.signature} {{\n{self.body}\n}}\n"


CASES: list[Case] = []
_counter = itertools.count()


def add_case(
    op: str,
    arguments: Sequence[str],
    results: Sequence[str],
    body: str,
    inputs: Iterable[tuple[Any, ...]],
    exact: bool = True,
    reference: Callable[..., list[Any]] | None = None,
) -> None:
    """A function of `arguments` computing `body` (which uses %a, %b, %c and
    defines %r0, %r1, ...) and returning `results`."""
    name = f"{op.replace('.', '_')}_{'_'.join(arguments) or 'none'}_{next(_counter)}"
    names = "abcdefgh"
    signature = (
        "("
        + ", ".join(f"%{names[i]}: {t}" for i, t in enumerate(arguments))
        + ") -> ("
        + ", ".join(results)
        + ")"
    )
    returned = ", ".join(f"%r{i}" for i in range(len(results)))
    body = f"{body}\n  func.return {returned} : {', '.join(results)}"
    CASES.append(
        Case(name, signature, body, list(inputs), exact, list(results), reference)
    )


def binary(op: str, type_: str, inputs, exact=True, result: str | None = None):
    add_case(
        op,
        [type_, type_],
        [result or type_],
        f"  %r0 = {op} %a, %b : {type_}",
        inputs,
        exact,
    )


def unary(op: str, type_: str, inputs, exact=True):
    add_case(op, [type_], [type_], f"  %r0 = {op} %a : {type_}", inputs, exact)


def cast(op: str, source: str, target: str, inputs):
    add_case(op, [source], [target], f"  %r0 = {op} %a : {source} to {target}", inputs)


def pairs(values: Sequence[Any]) -> list[tuple[Any, Any]]:
    return list(itertools.product(values, values))


# arith: integers -----------------------------------------------------------

for type_ in ("i8", "i32", "i64", "index"):
    values = integers(type_)
    width = WIDTHS[type_]
    low = -(1 << (width - 1))
    for op in ("addi", "subi", "muli", "andi", "ori", "xori"):
        binary(f"arith.{op}", type_, pairs(values))
    if type_ != "index":
        for op in ("maxsi", "minsi", "maxui", "minui"):
            binary(f"arith.{op}", type_, pairs(values))
    signed_ok = [(a, b) for a, b in pairs(values) if b != 0 and (a, b) != (low, -1)]
    unsigned_ok = [(a, b) for a, b in pairs(values) if b != 0]
    for op in ("divsi", "remsi", "ceildivsi", "floordivsi"):
        binary(f"arith.{op}", type_, signed_ok)
    for op in ("divui", "remui", "ceildivui"):
        binary(f"arith.{op}", type_, unsigned_ok)
    shifts = [(a, b) for a in values for b in range(0, width, max(1, width // 7))]
    for op in ("shli", "shrsi", "shrui"):
        binary(f"arith.{op}", type_, shifts)
    for predicate in (
        "eq",
        "ne",
        "slt",
        "sle",
        "sgt",
        "sge",
        "ult",
        "ule",
        "ugt",
        "uge",
    ):
        add_case(
            "arith.cmpi",
            [type_, type_],
            ["i1"],
            f"  %r0 = arith.cmpi {predicate}, %a, %b : {type_}",
            pairs(values),
        )
    add_case(
        "arith.select",
        ["i1", type_, type_],
        [type_],
        f"  %r0 = arith.select %a, %b, %c : {type_}",
        [(c, a, b) for c in (0, 1) for a, b in pairs(values[:4])],
    )


def _add_extended(width: int) -> Callable[..., list[Any]]:
    def reference(a: int, b: int) -> list[Any]:
        mask = (1 << width) - 1
        total = (a & mask) + (b & mask)
        return [to_signed(total, width), int(total > mask)]

    return reference


def _mul_extended(width: int, signed: bool) -> Callable[..., list[Any]]:
    def reference(a: int, b: int) -> list[Any]:
        if not signed:
            a, b = a & ((1 << width) - 1), b & ((1 << width) - 1)
        product = a * b
        return [to_signed(product, width), to_signed(product >> width, width)]

    return reference


# The extended ops' interpreter functions are ours: Python checks them too.
for type_ in ("i32", "i64"):
    values = integers(type_)
    width = WIDTHS[type_]
    add_case(
        "arith.addui_extended",
        [type_, type_],
        [type_, "i1"],
        f"  %r0, %r1 = arith.addui_extended %a, %b : {type_}, i1",
        pairs(values),
        reference=_add_extended(width),
    )
    for op, signed in (("mulsi_extended", True), ("mului_extended", False)):
        add_case(
            f"arith.{op}",
            [type_, type_],
            [type_, type_],
            f"  %r0, %r1 = arith.{op} %a, %b : {type_}",
            pairs(values),
            reference=_mul_extended(width, signed),
        )

# Overflow flags are promises: only inputs that keep them.
add_case(
    "arith.addi_nsw",
    ["i32", "i32"],
    ["i32"],
    "  %r0 = arith.addi %a, %b overflow<nsw> : i32",
    pairs([-5, 0, 3, 1000]),
)
add_case(
    "arith.constants",
    [],
    ["i1", "i8", "i32", "index", "f32", "f64", "f32"],
    "\n".join(
        [
            "  %r0 = arith.constant true",
            "  %r1 = arith.constant -128 : i8",
            "  %r2 = arith.constant 2147483647 : i32",
            "  %r3 = arith.constant -9 : index",
            "  %r4 = arith.constant 0x7FC00000 : f32",
            "  %r5 = arith.constant -2.5e-300 : f64",
            "  %r6 = arith.constant -0.0 : f32",
        ]
    ),
    [()],
)

# arith: floats -------------------------------------------------------------

FLOAT_BINARY = (
    "addf",
    "subf",
    "mulf",
    "divf",
    "maximumf",
    "minimumf",
    "maxnumf",
    "minnumf",
)
CMPF = (
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
)
for type_ in FLOATS:
    values = floats(type_)
    for op in FLOAT_BINARY:
        # maxnum/minnum may return either zero of ±0 (LLVM and numpy alike):
        # compared by value, not bits.
        exact = op not in ("maxnumf", "minnumf")
        binary(f"arith.{op}", type_, pairs(values), exact)
    binary("arith.addf", type_, pairs(values[:6]))
    # remf (linalg_ext.compat): fmod, exact, NaN for a zero divisor or an
    # infinite dividend.
    binary("arith.remf", type_, pairs(values))
    add_case(
        "arith.remf_fast",
        [type_, type_],
        [type_],
        f"  %r0 = arith.remf %a, %b fastmath<fast> : {type_}",
        pairs([7.5, -7.5, 2.0, -0.75]),
    )
    add_case(
        "arith.mulf_fast",
        [type_, type_],
        [type_],
        f"  %r0 = arith.mulf %a, %b fastmath<contract> : {type_}",
        pairs([1.5, -2.0, 0.25]),
    )
    unary("arith.negf", type_, [(v,) for v in values])
    for predicate in CMPF:
        add_case(
            "arith.cmpf",
            [type_, type_],
            ["i1"],
            f"  %r0 = arith.cmpf {predicate}, %a, %b : {type_}",
            pairs(values[::2] + [-0.0]),
        )
    add_case(
        "arith.select",
        ["i1", type_, type_],
        [type_],
        f"  %r0 = arith.select %a, %b, %c : {type_}",
        [(1, -0.0, 1.5), (0, -0.0, math.nan)],
    )

# arith: casts --------------------------------------------------------------

for source, target in (("i8", "i32"), ("i1", "i32"), ("i32", "i64"), ("i16", "i64")):
    values = [(v,) for v in integers(source)]
    cast("arith.extsi", source, target, values)
    cast("arith.extui", source, target, values)
    cast("arith.trunci", target, source, [(v,) for v in integers(target)])
for type_ in ("i1", "i8", "i32", "i64"):
    values = [(v,) for v in integers(type_)]
    cast("arith.index_cast", type_, "index", values)
    cast("arith.index_cast", "index", type_, [(v,) for v in integers("index")])
    for target in FLOATS:
        cast("arith.sitofp", type_, target, values)
        cast("arith.uitofp", type_, target, values)
for source in FLOATS:
    in_range = [2.75, -2.75, 0.0, -0.0, 100.5, -127.9, 126.99]
    for target in ("i8", "i32", "i64"):
        cast("arith.fptosi", source, target, [(v,) for v in in_range])
        cast("arith.fptoui", source, target, [(abs(v),) for v in in_range])
# index_castui (linalg_ext.compat): the operand read as unsigned; our
# interpreter function, so Python checks it too.
for type_ in ("i1", "i8", "i32", "i64"):
    width = WIDTHS[type_]
    add_case(
        "arith.index_castui",
        [type_],
        ["index"],
        f"  %r0 = arith.index_castui %a : {type_} to index",
        [(v,) for v in integers(type_)],
        reference=lambda a, w=width: [to_signed(a & ((1 << w) - 1), 64)],
    )
    add_case(
        "arith.index_castui",
        ["index"],
        [type_],
        f"  %r0 = arith.index_castui %a : index to {type_}",
        [(v,) for v in integers("index")],
        reference=lambda a, w=width: [to_signed(a, w)],
    )
cast("arith.extf", "f32", "f64", [(v,) for v in floats("f32")])
cast("arith.truncf", "f64", "f32", [(v,) for v in floats("f64")] + [(1 + 2**-30,)])
cast("arith.bitcast", "f32", "i32", [(v,) for v in floats("f32") if v == v])
cast("arith.bitcast", "i32", "f32", [(v,) for v in integers("i32")])
cast("arith.bitcast", "i64", "f64", [(v,) for v in integers("i64")])
cast("arith.bitcast", "index", "i64", [(v,) for v in integers("index")])

# math ----------------------------------------------------------------------

EXACT_MATH = ("absf", "ceil", "floor", "trunc", "round", "roundeven", "sqrt")
LIBM_MATH = (
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sinh",
    "cosh",
    "asin",
    "acos",
    "atan",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "cbrt",
    "rsqrt",
)
MATH_INPUTS = [0.0, -0.0, 0.3, -0.7, 1.0, 2.5, -3.5, 0.5, 1.5, -2.5, 1e-5, 40.0]
for type_ in FLOATS:
    values = [(float(FLOATS[type_](v)),) for v in MATH_INPUTS + [math.nan, math.inf]]
    for op in EXACT_MATH:
        unary(f"math.{op}", type_, values)
    for op in LIBM_MATH:
        unary(f"math.{op}", type_, values, exact=False)
    two = pairs([0.5, -1.25, 2.0, 3.0, -0.0, math.inf])
    binary("math.powf", type_, [(a, b) for a, b in two if a >= 0], exact=False)
    binary("math.atan2", type_, two, exact=False)
    binary("math.copysign", type_, two)
    add_case(
        "math.fma",
        [type_, type_, type_],
        [type_],
        f"  %r0 = math.fma %a, %b, %c : {type_}",
        [(0.1, 10.0, -1.0), (1e10, 1e-10, 3.0), (-2.0, 0.5, 1.0)],
    )
    add_case(
        "math.fpowi",
        [type_, "i32"],
        [type_],
        f"  %r0 = math.fpowi %a, %b : {type_}, i32",
        [
            (a, n)
            for a in (0.5, -1.5, 1.1, 3.0, -0.0, math.inf, math.nan)
            for n in (-3, -1, 0, 1, 2, 7, 13, -(2**31))
        ],
    )
    # A constant exponent is unrolled: the same products as the loop.
    add_case(
        "math.fpowi_constant",
        [type_],
        [type_, type_, type_, type_],
        "\n".join(
            (
                "  %three = arith.constant 3 : i64",
                "  %minus_six = arith.constant -6 : i32",
                "  %zero = arith.constant 0 : i16",
                "  %large = arith.constant 1000001 : i32",
                f"  %r0 = math.fpowi %a, %three : {type_}, i64",
                f"  %r1 = math.fpowi %a, %minus_six : {type_}, i32",
                f"  %r2 = math.fpowi %a, %zero : {type_}, i16",
                f"  %r3 = math.fpowi %a, %large : {type_}, i32",
            )
        ),
        [(1.1,), (-0.7,), (1.0000001,), (-0.0,), (math.nan,)],
    )
    add_case(
        "math.tanh_fast",
        [type_],
        [type_],
        f"  %r0 = math.tanh %a fastmath<afn> : {type_}",
        [(0.3,), (-2.0,)],
        exact=False,
    )
for type_ in ("i8", "i32", "i64"):
    values = [(v,) for v in integers(type_)]
    for op in ("ctlz", "cttz", "ctpop", "absi"):
        unary(f"math.{op}", type_, values)
for type_ in ("i32", "i64", "index"):
    ipowi_inputs = [
        (a, n) for a in (-3, -2, -1, 0, 1, 2, 5) for n in (-3, -1, 0, 1, 2, 3, 13)
    ]
    binary(
        "math.ipowi", type_, [(a, n) for a, n in ipowi_inputs if not (a == 0 and n < 0)]
    )
# f16 goes through f32 for libm and stays f16 for intrinsics.
add_case(
    "math.f16",
    ["f16"],
    ["f16", "f16", "f16"],
    "  %r0 = math.tanh %a : f16\n  %r1 = math.floor %a : f16\n"
    "  %r2 = arith.addf %a, %a : f16",
    [(0.3,), (-2.5,), (1000.0,)],
    exact=False,
)

# index dialect -------------------------------------------------------------

INDEX_LOW = -(1 << 63)
index_values = integers("index")
for op in ("add", "sub", "mul", "and", "or", "xor", "maxs", "maxu", "mins", "minu"):
    add_case(
        f"index.{op}",
        ["index", "index"],
        ["index"],
        f"  %r0 = index.{op} %a, %b",
        pairs(index_values),
    )
for op in ("divs", "rems", "ceildivs", "floordivs"):
    add_case(
        f"index.{op}",
        ["index", "index"],
        ["index"],
        f"  %r0 = index.{op} %a, %b",
        [
            (a, b)
            for a, b in pairs(index_values)
            if b != 0 and (a, b) != (INDEX_LOW, -1)
        ],
    )
for op in ("divu", "remu", "ceildivu"):
    add_case(
        f"index.{op}",
        ["index", "index"],
        ["index"],
        f"  %r0 = index.{op} %a, %b",
        [(a, b) for a, b in pairs(index_values) if b != 0],
    )
for op in ("shl", "shrs", "shru"):
    add_case(
        f"index.{op}",
        ["index", "index"],
        ["index"],
        f"  %r0 = index.{op} %a, %b",
        [(a, b) for a in index_values for b in (0, 1, 13, 63)],
    )
for predicate in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
    add_case(
        "index.cmp",
        ["index", "index"],
        ["i1"],
        f"  %r0 = index.cmp {predicate}(%a, %b)",
        pairs(index_values),
    )
for type_ in ("i8", "i32", "i64"):
    for op in ("casts", "castu"):
        cast(f"index.{op}", type_, "index", [(v,) for v in integers(type_)])
        cast(f"index.{op}", "index", type_, [(v,) for v in index_values])
add_case(
    "index.constants",
    [],
    ["index", "i1", "index"],
    "  %r0 = index.constant -42\n  %r1 = index.bool.constant true\n"
    "  %r2 = index.sizeof",
    [()],
)

# cf and func: small programs -----------------------------------------------

PROGRAMS = """
func.func @sum_below(%n: index) -> index {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  cf.br ^loop(%zero, %zero : index, index)
^loop(%i: index, %total: index):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^done
^body:
  %next_total = arith.addi %total, %i : index
  %next = arith.addi %i, %one : index
  cf.br ^loop(%next, %next_total : index, index)
^done:
  return %total : index
}

func.func @pick(%flag: i32, %x: f64) -> f64 {
  %two = arith.constant 2.0 : f64
  %doubled = arith.mulf %x, %two : f64
  cf.switch %flag : i32, [
    default: ^out(%x : f64),
    -1: ^negate,
    4: ^out(%doubled : f64),
    5: ^out(%two : f64)
  ]
^negate:
  %n = arith.negf %x : f64
  cf.br ^out(%n : f64)
^out(%r: f64):
  return %r : f64
}

func.func @same_block(%c: i1, %x: i64, %y: i64) -> i64 {
  cf.cond_br %c, ^join(%x : i64), ^join(%y : i64)
^join(%v: i64):
  return %v : i64
}

func.func @switch_index(%flag: index) -> i32 {
  %a = arith.constant 10 : i32
  %b = arith.constant 20 : i32
  cf.switch %flag : index, [
    default: ^out(%a : i32),
    3: ^out(%b : i32),
    7: ^out(%b : i32)
  ]
^out(%r: i32):
  return %r : i32
}

func.func @checked(%x: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  %a = math.absf %x : f32
  %ok = arith.cmpf oge, %a, %zero : f32
  cf.assert %ok, "absf is never negative"
  %r = math.sqrt %a : f32
  return %r : f32
}

func.func private @divmod(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.floordivsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  return %q, %r : i32, i32
}

func.func private @external_cos(f64) -> f64

func.func @calls(%a: i32, %b: i32, %n: index) -> i64 {
  %q, %r = func.call @divmod(%a, %b) : (i32, i32) -> (i32, i32)
  %s = func.call @sum_below(%n) : (index) -> index
  %qi = arith.extsi %q : i32 to i64
  %ri = arith.extsi %r : i32 to i64
  %si = arith.index_cast %s : index to i64
  %t = arith.addi %qi, %ri : i64
  %u = arith.muli %t, %si : i64
  return %u : i64
}
"""

PROGRAM_INPUTS: dict[str, list[tuple[Any, ...]]] = {
    "sum_below": [(0,), (1,), (5,), (100,)],
    "pick": [(f, x) for f in (-1, 0, 4, 5, 6) for x in (1.5, -0.0, math.nan)],
    "same_block": [(c, 7, -9) for c in (0, 1)],
    "switch_index": [(v,) for v in (0, 3, 7, 8)],
    "checked": [(v,) for v in (4.0, -2.25, 0.0)],
    "calls": [(a, b, n) for a in (-7, 9) for b in (2, -3) for n in (0, 4)],
}


# --------------------------------------------------------------------------
# Running


def parse(text: str) -> ModuleOp:
    context = make_context()
    _register_index(context)
    module = Parser(context, text).parse_module()
    module.verify()
    return module


def _register_index(context: Context) -> None:
    # `linalg_ext.universe` may register the index dialect itself.
    if "index" not in context.registered_dialect_names:
        context.register_dialect("index", lambda: Index)


_interpreters: dict[int, Any] = {}
_expected: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}


def interpret(module: ModuleOp, name: str, inputs: tuple[Any, ...]) -> list[Any]:
    """The interpreter's results (computed once per function and inputs:
    both optimization levels compare with them)."""
    key = (name, tuple(repr(v) for v in inputs))
    if key not in _expected:
        interpreter = _interpreters.get(id(module))
        if interpreter is None:
            interpreter = _interpreters[id(module)] = make_interpreter(module)
            # Until linalg_ext.running registers them.
            interpreter.register_implementations(IndexFunctions(), override=True)
            interpreter.register_implementations(CfOpFunctions(), override=True)
            interpreter.register_implementations(
                ExtendedArithFunctions(), override=True
            )
        _expected[key] = list(interpreter.call_op(name, inputs))
    return _expected[key]


def _argument_types(case_signature: str) -> list[str]:
    inside = case_signature[1 : case_signature.index(")")]
    return [part.split(":")[1].strip() for part in inside.split(",") if part]


def interpreter_inputs(types: Sequence[str], values: tuple[Any, ...]) -> tuple:
    """Values as the interpreter holds them: floats rounded to their type,
    integers wrapped to their width, signed."""
    converted = []
    for type_, value in zip(types, values, strict=True):
        if type_ in FLOATS:
            converted.append(float(FLOATS[type_](value)))
        elif type_ == "f16":
            converted.append(float(np.float16(value)))
        else:
            converted.append(to_signed(int(value), WIDTHS[type_]))
    return tuple(converted)


def normalized(value: Any, type_: str) -> Any:
    if type_ == "i1":
        return 1 if value else 0
    if type_ in WIDTHS:
        return to_signed(int(value), WIDTHS[type_])
    return value


def bits(value: float, type_: str) -> int:
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_]
    unsigned = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}[type_]
    array = np.array([value], dtype=dtype)
    if np.isnan(array[0]):
        return -1  # every NaN is the same here
    return int(array.view(unsigned)[0])


def difference(expected: Any, actual: Any, type_: str, exact: bool) -> str | None:
    if type_ in WIDTHS:
        if normalized(expected, type_) != normalized(actual, type_):
            return f"{normalized(expected, type_)} expected, got {actual}"
        return None
    if exact:
        if bits(expected, type_) != bits(actual, type_):
            return f"{expected!r} expected, got {actual!r}"
        return None
    dtype = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[type_]
    return first_difference(dtype(expected), dtype(actual))


def compile_module(module: ModuleOp, opt_level: int):
    from linalg_ext import jit

    return jit.compile_module(module, opt_level=opt_level)


@pytest.fixture(scope="module")
def module() -> ModuleOp:
    return parse("".join(case.text() for case in CASES) + PROGRAMS)


@pytest.fixture(scope="module", params=[0, 3], ids=["O0", "O3"])
def compiled(request, module: ModuleOp):
    return module, compile_module(module, request.param)


def _check(
    module: ModuleOp,
    jitted,
    name: str,
    types: Sequence[str],
    result_types: Sequence[str],
    inputs: Sequence[tuple[Any, ...]],
    exact: bool,
    reference: Callable[..., list[Any]] | None = None,
) -> list[str]:
    failures: list[str] = []
    for values in inputs:
        arguments = interpreter_inputs(types, values)
        expected = interpret(module, name, arguments)
        if reference is not None:
            # Python's answer checks the interpreter's too.
            assert expected == reference(*arguments), (name, arguments)
        actual = jitted[name](*arguments)
        if len(result_types) == 1:
            actual = [actual]
        for index, (e, a, t) in enumerate(
            zip(expected, actual, result_types, strict=True)
        ):
            problem = difference(e, a, t, exact)
            if problem is not None:
                failures.append(f"@{name}{arguments} result #{index}: {problem}")
    return failures


@pytest.mark.parametrize(
    "family", ["arith", "math", "index"], ids=["arith", "math", "index"]
)
def test_ops_agree_with_interpreter(compiled, family: str):
    module, jitted = compiled
    failures: list[str] = []
    for case in CASES:
        if not case.name.startswith(family + "_"):
            continue
        failures += _check(
            module,
            jitted,
            case.name,
            _argument_types(case.signature),
            case.result_types,
            case.inputs,
            case.exact,
            case.reference,
        )
    assert not failures, "\n".join(failures[:30])


def _program_types(module: ModuleOp, name: str) -> tuple[list[str], list[str]]:
    from linalg_ext.running import find_function

    function = find_function(module, name)
    inputs = [str(t) for t in function.function_type.inputs.data]
    outputs = [str(t) for t in function.function_type.outputs.data]
    return inputs, outputs


@pytest.mark.parametrize("name", sorted(PROGRAM_INPUTS))
def test_programs_agree_with_interpreter(compiled, name: str):
    module, jitted = compiled
    inputs, outputs = _program_types(module, name)
    failures = _check(
        module, jitted, name, inputs, outputs, PROGRAM_INPUTS[name], exact=True
    )
    assert not failures, "\n".join(failures)


# --------------------------------------------------------------------------
# Against upstream

MLIR_OPT = shutil.which("mlir-opt-22")
UPSTREAM_PASSES = {
    "arith": "--convert-arith-to-llvm",
    "math": "--convert-math-to-llvm",
    "index": "--convert-index-to-llvm",
}
"""The families whose ops upstream lowers op by op to the same LLVM op."""


def _llvm_op_names(text: str) -> dict[str, list[str]]:
    """The LLVM ops of each function of a printed module, in order (but
    constants), by function name."""
    functions: dict[str, list[str]] = {}
    names: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("func.func @"):
            names = functions.setdefault(line.split("@")[1].split("(")[0], [])
            continue
        if "=" in line:
            line = line.split("=", 1)[1].strip()
        word = line.split(" ", 1)[0].split("(", 1)[0].strip('"')
        if word.startswith("llvm.") and word != "llvm.mlir.constant":
            names.append(word)
    return functions


def _ours(text: str, family: str) -> dict[str, list[str]]:
    from xdsl.passes import PassPipeline

    from linalg_ext.passes import ALL_PASSES

    module = parse(text)
    PassPipeline((ALL_PASSES[f"convert-{family}-to-llvm"]()(),)).apply(
        make_context(), module
    )
    return _llvm_op_names(str(module))


def _upstream(text: str, family: str) -> dict[str, list[str]]:
    assert MLIR_OPT is not None
    run = subprocess.run(
        [MLIR_OPT, UPSTREAM_PASSES[family]],
        input=text.replace("func.return", "return"),
        capture_output=True,
        text=True,
        check=True,
    )
    return _llvm_op_names(run.stdout)


ONE_TO_ONE: Callable[[Case], bool] = lambda case: (  # noqa: E731
    # Ops where we knowingly differ from upstream: libm calls (upstream has
    # intrinsics), fpowi (multiplications instead of powi), ipowi, expm1/log1p
    # (upstream's are inexact), the rounding divisions (expanded
    # differently), index constants (upstream folds them).
    not any(
        op in case.name
        for op in (
            "ipowi",
            "fpowi",
            "expm1",
            "log1p",
            "tan",
            "sinh",
            "cosh",
            "asin",
            "acos",
            "atan",
            "erf",
            "cbrt",
            "f16",
            "constants",
            "sizeof",
            "extended",
            "ceildiv",
            "floordiv",
            "bitcast_index",  # upstream's arith.bitcast refuses index
        )
    )
)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("family", sorted(UPSTREAM_PASSES))
def test_same_llvm_ops_as_upstream(family: str):
    """Each one-op function lowers to the LLVM ops upstream's pass produces
    (compared by op name, in order, constants aside)."""
    cases = [
        case
        for case in CASES
        if case.name.startswith(family + "_") and ONE_TO_ONE(case)
    ]
    text = "".join(case.text() for case in cases)
    ours, upstream = _ours(text, family), _upstream(text, family)
    differences = [
        f"@{case.name}: ours {ours[case.name]}, upstream {upstream[case.name]}"
        for case in cases
        if ours[case.name] != upstream[case.name]
    ]
    assert not differences, "\n".join(differences[:20])
