"""Compatibility with upstream MLIR where xDSL 0.74 falls short.

The one place that adds to or corrects xDSL's own dialects (ops it cannot
parse, printing it gets wrong). `install()` applies everything, once.

When: only for those who use this package. Installing the package changes
nothing by itself: the stock `xdsl-opt` applies these fixes when it loads our
`linalg_ext` dialect or one of our passes (`linalg_ext.universe`), our own
driver `linalg-ext-opt` and `linalg_ext.context.make_context` apply them up
front. A file that uses neither our dialect nor our passes is parsed, printed
and transformed exactly as plain xDSL does (`make test-xdsl-compat` shows it
on xDSL's own tests).

What it adds (see docs/compat.md):

- `linalg`: `linalg.map`, `linalg.batch_matmul`, and the named elementwise
  ops `div`, `negf`, `abs`, `floor`, `ceil`, `tanh`, `rsqrt`, `reciprocal`,
  `square`, `powf` (`linalg_ops`); upstream's OpDSL contractions,
  convolutions and poolings xDSL lacks (`matvec`, `dot`, depthwise
  convolutions, ...: `linalg_opdsl`); `linalg.fill_rng_2d`
  (`linalg_fill_rng`); `linalg.softmax` (`linalg_softmax`);
  `linalg.elementwise` and `#linalg.elementwise_kind` (`linalg_elementwise`);
  MLIR 19's `linalg.elemwise_unary`/`elemwise_binary` and `#linalg.unary_fn`,
  `binary_fn`, `type_fn` (`linalg_elemwise_legacy`);
- `affine`: `affine.max` (`affine_ops`);
- `scf`: `scf.forall` and `scf.forall.in_parallel`; `tensor`:
  `tensor.parallel_insert_slice` (`forall_ops`), `tensor.generate`
  (`tensor_ops`);
- `gpu`: the mapping attributes `#gpu.block<x>`, `#gpu.thread<x>`, ... that
  `scf.forall` names (`gpu_attrs`).

What it corrects: the effect traits `linalg.index` and `arith.extsi` lack
(`pure_traits`); named ops' attribute dictionaries, `linalg.matmul`'s
`indexing_maps` and hidden body, `linalg.transpose`/`broadcast` attributes
(`linalg_named_attrs`); `linalg.reduce`, replaced by one with several inputs
and inits (`linalg_reduce`); `linalg.generic`'s custom syntax (`generic_format`); the
structured-op queries (`inputs`, `outputs`, indexing maps, iterator types)
that `linalg.broadcast` and `linalg.reduce` lack (`structured_interface`);
`bufferization.to_tensor`/`to_buffer` between a tensor and a memref of any
layout (`bufferization_ops`).

For the LLVM lowering: `llvm` ops xDSL lacks (`llvm_ops`), and their
translation to LLVM IR, routed in front of xDSL's (`llvm_translation`).

For reading what upstream's pipelines print: `arith.remf` and
`arith.index_castui` (`arith_ops`); `llvm.mlir.poison`, more intrinsics
(`llvm_value_ops`) and the GEP no-wrap flags (`llvm_syntax`); the custom
forms of `memref.copy`, `cast`, `global`, `rank`,
`extract_aligned_pointer_as_index` (`memref_syntax`), of `affine.if`, and
semi-affine maps (`affine_syntax`), of `scf.parallel`/`scf.reduce`
(`scf_syntax`); `linalg.index` in `linalg.map` (`linalg_index`).

For torch-mlir's weights: reading the blobs of `dense_resource` elements,
one key renaming per file, hex-checked blobs, one blob a line when printing,
and `memref.global` initial values that are resources (`resources`); float
elements of `dense<...>` written in hex (bit patterns: `-inf` in attention
masks), and splats tested by bits (`dense_hex`).

For reading upstream's and ByteIR's test inputs: `scf.for`/`scf.if` result
types without parentheses and `scf.while` without operands (`scf_syntax`),
`linalg.generic #trait` (`generic_format`), semi-affine memory accesses
(`affine_syntax`), `vector.print` with upstream's syntax (`vector_print`,
replacing xDSL's op), and a minimal `shape` dialect (`shape_dialect`,
registered by `linalg_ext.universe` like the `index` dialect), and ByteIR's
transform scripts: `transform.sequence` with MLIR's syntax and `!pdl.operation`
handles (`transform_sequence`).

Not here: the one-line errors of the stock `xdsl-opt` and `xdsl-run` once
they load our dialect or passes, a driver concern
(`linalg_ext.tools.stock_drivers`, installed by the loaders of the
`xdsl.universe` entry point, `linalg_ext.tools.xdsl_plugin`).

A `Context` copies a dialect's ops when it first loads the dialect, so ops
appended to xDSL's `Dialect` objects reach a context that loads the dialect
afterwards; `install(ctx)` also hands them to a context that loaded the
dialect before (the stock `xdsl-opt` loads `linalg` on the first `linalg.`
op, which may come before the first `linalg_ext.` op).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType

from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation

_installed = False
"""Whether the fixes to every dialect but `llvm`, `vector` and `transform`
are applied (those three are groups of their own, `_GROUPS`)."""
_installed_groups: set[str] = set()
_added_ops: list[tuple[str, type[Operation]]] = []
"""(dialect name, op) for every op `install()` appended to an xDSL dialect."""
_added_attrs: list[tuple[str, type[Attribute]]] = []
_replaced_ops: list[tuple[type[Operation], type[Operation]]] = []
"""(xDSL's op, ours) for every op `install()` put in place of xDSL's."""


def _add_operations(dialect: Dialect, ops: Iterable[type[Operation]]) -> None:
    """Append each op the dialect does not already define (by name), so that
    a second call, or an xDSL that gained the op, changes nothing."""
    known = {op.name for op in dialect.operations}
    for op in ops:
        if op.name not in known:
            dialect._operations.append(op)  # pyright: ignore[reportPrivateUsage]
            _added_ops.append((dialect.name, op))


def _replace_operation(
    dialect: Dialect, replaced: type[Operation], replacement: type[Operation]
) -> None:
    """Put `replacement` in `replaced`'s place in the dialect (same name),
    where xDSL's op cannot be extended to upstream's form; idempotent."""
    operations = dialect._operations  # pyright: ignore[reportPrivateUsage]
    if replacement in operations:
        return
    operations[:] = [op for op in operations if op is not replaced]
    operations.append(replacement)
    _replaced_ops.append((replaced, replacement))


def _add_attributes(dialect: Dialect, attrs: Iterable[type[Attribute]]) -> None:
    known = {attr.name for attr in dialect.attributes}
    for attr in attrs:
        if attr.name not in known:
            dialect._attributes.append(attr)  # pyright: ignore[reportPrivateUsage]
            _added_attrs.append((dialect.name, attr))


def install(ctx: Context | None = None) -> None:
    """Apply every compatibility fix to xDSL's dialects (idempotent); with
    `ctx`, also load the added ops and attributes of the dialects `ctx` has
    already loaded into it."""
    _install_once()
    for group in _GROUPS:
        _install_group(group)
    _install_translation()
    if ctx is not None:
        _load_added_into(ctx)


def install_on_use(ctx: Context | None) -> None:
    """`install(ctx)`, but the fixes to `llvm`, `vector` and `transform`
    (importing them is a tenth of a second of every start) only once they
    can matter: now if xDSL's module of that dialect is imported already,
    else when `ctx` loads the dialect (its registered loader is wrapped) or
    `install_imported` finds the module imported; the translation to LLVM
    IR when xDSL's translation module is imported. Without `ctx`,
    everything now.

    What those fixes change is how ops of the three dialects are parsed
    (new and replaced ops, syntax, `!pdl.operation` handles: through `ctx`)
    and translated; ops a pass builds print and verify as their classes
    say, installed or not."""
    if ctx is None:
        install()
        return
    _install_once()
    after_import(_TRANSLATION_MODULE, _install_translation)
    install_imported(ctx)
    # Context has no public way to replace a registered loader.
    loaders = ctx._registered_dialects  # pyright: ignore[reportPrivateUsage]
    for group in _GROUPS:
        load = loaders.get(group)
        if group in _installed_groups or load is None:
            continue
        loaders[group] = _installing_first(group, load)


def install_imported(ctx: Context | None = None) -> None:
    """Apply the deferred fixes (`install_on_use`) of each dialect whose xDSL
    module has been imported by now (code that builds its ops imports it
    first). With `ctx`, load what was added into it."""
    for group in _GROUPS:
        if f"xdsl.dialects.{group}" in sys.modules:
            _install_group(group)
    if ctx is not None:
        _load_added_into(ctx)


def _installing_first(group: str, load: Callable[[], Dialect]) -> Callable[[], Dialect]:
    def load_fixed() -> Dialect:
        _install_group(group)
        return load()

    return load_fixed


def _install_group(group: str) -> None:
    if group in _installed_groups:
        return
    _installed_groups.add(group)
    _GROUPS[group]()


def _load_added_into(ctx: Context) -> None:
    loaded_dialects = {dialect.name for dialect in ctx.loaded_dialects}
    loaded_ops = {op.name for op in ctx.loaded_ops}
    for dialect_name, op in _added_ops:
        if dialect_name in loaded_dialects and op.name not in loaded_ops:
            ctx.load_op(op)
    # A context keeps the classes it has loaded; Context has no public way
    # to swap one, hence the private table.
    classes = ctx._loaded_ops  # pyright: ignore[reportPrivateUsage]
    for replaced, replacement in _replaced_ops:
        if classes.get(replacement.name) is replaced:
            classes[replacement.name] = replacement
    loaded_attrs = {a.name for a in (*ctx.loaded_attrs, *ctx.loaded_types)}
    for dialect_name, attr in _added_attrs:
        if dialect_name in loaded_dialects and attr.name not in loaded_attrs:
            ctx.load_attr_or_type(attr)


def _install_once() -> None:
    global _installed
    if _installed:
        return
    _installed = True

    from xdsl.dialects.affine import Affine
    from xdsl.dialects.gpu import GPU
    from xdsl.dialects.linalg import Linalg
    from xdsl.dialects.linalg.ops import ReduceOp as XdslReduceOp
    from xdsl.dialects.scf import Scf
    from xdsl.dialects.tensor import Tensor

    from linalg_ext.compat.affine_ops import MaxOp
    from linalg_ext.compat.bufferization_ops import install_bufferization_fixes
    from linalg_ext.compat.forall_ops import FORALL_OPS, ParallelInsertSliceOp
    from linalg_ext.compat.generic_format import install_generic_format
    from linalg_ext.compat.gpu_attrs import GPU_MAPPING_ATTRS
    from linalg_ext.compat.linalg_elementwise import ElementwiseKindAttr, ElementwiseOp
    from linalg_ext.compat.linalg_named_attrs import install_named_syntax
    from linalg_ext.compat.linalg_ops import LINALG_OPS
    from linalg_ext.compat.linalg_reduce import ReduceOp
    from linalg_ext.compat.linalg_softmax import SoftmaxOp
    from linalg_ext.compat.structured_interface import install_structured_interface
    from linalg_ext.compat.tensor_ops import TENSOR_OPS

    _add_operations(Linalg, LINALG_OPS)
    # Upstream's OpDSL contractions, convolutions and poolings (`linalg_opdsl`),
    # and its `fill_rng_2d` (`linalg_fill_rng`).
    from linalg_ext.compat.linalg_fill_rng import FillRng2DOp
    from linalg_ext.compat.linalg_opdsl import OPDSL_OPS

    _add_operations(Linalg, (*OPDSL_OPS, FillRng2DOp))
    _add_operations(Affine, (MaxOp,))
    _add_operations(Scf, FORALL_OPS)
    _add_operations(Tensor, (*TENSOR_OPS, ParallelInsertSliceOp))
    _add_attributes(GPU, GPU_MAPPING_ATTRS)
    install_generic_format()
    install_bufferization_fixes()
    install_structured_interface()
    install_named_syntax()
    _replace_operation(Linalg, XdslReduceOp, ReduceOp)
    # Code that asks `isinstance(op, xDSL's ReduceOp)` keeps finding reduces.
    XdslReduceOp.register(ReduceOp)
    _add_operations(Linalg, (SoftmaxOp, ElementwiseOp))
    _add_attributes(Linalg, (ElementwiseKindAttr,))
    # MLIR 19's OpDSL ops, which ByteIR's payloads use (`linalg_elemwise_legacy`).
    from linalg_ext.compat.linalg_elemwise_legacy import (
        ELEMWISE_LEGACY_OPS,
        FUNCTION_ATTRS,
    )

    _add_operations(Linalg, ELEMWISE_LEGACY_OPS)
    _add_attributes(Linalg, FUNCTION_ATTRS)
    # What upstream's pipelines print (docs/compat.md, "Reading mlir-opt's
    # output back").
    from xdsl.dialects.arith import Arith

    from linalg_ext.compat.affine_syntax import install_affine_syntax
    from linalg_ext.compat.arith_ops import ARITH_OPS
    from linalg_ext.compat.linalg_index import install_index_parents
    from linalg_ext.compat.memref_syntax import install_memref_syntax
    from linalg_ext.compat.scf_syntax import install_scf_syntax

    _add_operations(Arith, ARITH_OPS)
    install_memref_syntax()
    from linalg_ext.compat.resources import install_resource_fixes

    install_resource_fixes()
    # Hex (bit pattern) float elements of `dense<...>` (`dense_hex`).
    from linalg_ext.compat.dense_hex import install_dense_hex_fixes

    install_dense_hex_fixes()
    install_affine_syntax()
    install_scf_syntax()
    install_index_parents()

    # Upstream's verifier rules for the upstream ops our passes consume
    # (docs/compat.md, "Verifying upstream ops"). Kept last: the result-type
    # rule wraps every op the Linalg dialect has by now.
    from linalg_ext.compat.linalg_checks import install_linalg_checks
    from linalg_ext.compat.shape_checks import install_shape_checks
    from linalg_ext.compat.slice_checks import install_slice_checks

    install_slice_checks()
    install_shape_checks()
    install_linalg_checks()

    # `linalg.index` and `arith.extsi` have no effect (upstream's `Pure`):
    # generics reading them fuse, hoist and die like others (`pure_traits`).
    from linalg_ext.compat.pure_traits import install_pure_traits

    install_pure_traits()


def _install_llvm() -> None:
    """`llvm` ops xDSL lacks, their translation to LLVM IR, and upstream's
    syntax for xDSL's."""
    from xdsl.dialects.llvm import LLVM

    from linalg_ext.compat.llvm_memory_ops import LLVM_MEMORY_OPS
    from linalg_ext.compat.llvm_ops import LLVM_OPS
    from linalg_ext.compat.llvm_syntax import install_llvm_syntax
    from linalg_ext.compat.llvm_value_ops import LLVM_VALUE_OPS
    from linalg_ext.compat.llvm_vector_ops import LLVM_VECTOR_OPS, REPLACED_OPS

    _add_operations(LLVM, (*LLVM_OPS, *LLVM_MEMORY_OPS))
    _install_translation()
    # What upstream's pipelines print (docs/compat.md, "Reading mlir-opt's
    # output back").
    _add_operations(LLVM, LLVM_VALUE_OPS)
    # `llvm` ops on vectors (`convert-vector-to-llvm-ext`, arith on vectors).
    _add_operations(LLVM, LLVM_VECTOR_OPS)
    for replaced, replacement in REPLACED_OPS:
        _replace_operation(LLVM, replaced, replacement)
    install_llvm_syntax()


def _install_vector() -> None:
    # Upstream's and ByteIR's test inputs (docs/compat.md, "Upstream's
    # syntax in test inputs").
    from xdsl.dialects.vector import PrintOp as XdslPrintOp
    from xdsl.dialects.vector import Vector

    from linalg_ext.compat.vector_print import PrintOp, PrintPunctuationAttr

    _replace_operation(Vector, XdslPrintOp, PrintOp)
    _add_attributes(Vector, (PrintPunctuationAttr,))


def _install_transform() -> None:
    # ByteIR's transform scripts: `transform.sequence` with MLIR's syntax,
    # `!pdl.operation` handles (`transform_sequence`).
    from xdsl.dialects.transform import SequenceOp as XdslSequenceOp
    from xdsl.dialects.transform import Transform

    from linalg_ext.compat.transform_sequence import (
        SequenceOp,
        install_transform_sequence,
    )

    _replace_operation(Transform, XdslSequenceOp, SequenceOp)
    install_transform_sequence()


def _install_translation() -> None:
    """Our translations to LLVM IR (of our `llvm` ops, registered when their
    modules are imported, and of xDSL's float ops, with their flags) in
    front of xDSL's; idempotent. Imports none of our op modules, so that it
    can run whenever xDSL's translation module is imported."""
    from linalg_ext.compat.llvm_float_ops import install_float_op_translations
    from linalg_ext.compat.llvm_translation import install_llvm_translation

    install_llvm_translation()
    install_float_op_translations()


_TRANSLATION_MODULE = "xdsl.backend.llvm.convert"
"""xDSL's translation to LLVM IR (`-t llvm`), which `_install_translation`
routes through ours."""


def after_import(module: str, action: Callable[[], None]) -> None:
    """Run `action` now if `module` is imported, else right after it is
    first executed (once, however often this is asked): for work that
    needs a module that start-up must not import."""
    if module in sys.modules:
        action()
    elif not any(
        isinstance(f, _ActionAfterImport) and f.module == module and f.action is action
        for f in sys.meta_path
    ):
        sys.meta_path.insert(0, _ActionAfterImport(module, action))


class _ActionAfterImport(importlib.abc.MetaPathFinder):
    """Runs an action right after a module is first executed, then leaves
    `sys.meta_path`."""

    def __init__(self, module: str, action: Callable[[], None]):
        self.module = module
        self.action = action

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.module:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.abc.Loader):
            return spec
        execute = spec.loader.exec_module
        action = self.action

        def exec_module(module: ModuleType) -> None:
            execute(module)
            action()

        spec.loader.exec_module = exec_module
        return spec


_GROUPS: dict[str, Callable[[], None]] = {
    "llvm": _install_llvm,
    "vector": _install_vector,
    "transform": _install_transform,
}
"""Fixes applied on their own, keyed by the dialect they fix (its name,
also the last part of its xDSL module's name)."""
