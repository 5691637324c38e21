"""Putting our transform ops and their implementations in place, only for
users of the package.

`install(ctx)` is called wherever `linalg_ext.compat.install` is, right
after it, through `install_on_load(ctx)`: by `linalg_ext.context.make_context`,
by `linalg-ext-opt` at start-up, and, for the stock `xdsl-opt`, by
`linalg_ext.universe` when it first loads our dialect or one of our passes.
`install_on_load` defers it until the context loads the `transform` dialect
(importing our ops costs a tenth of a second of every start otherwise). Once,
it:

- adds `transform.structured.fuse`, `fuse_into_containing_op` and
  `transform.loop.peel` to xDSL's `transform` dialect, and puts our
  `split_handle`, `merge_handles`, `param.constant` and `cast` (with
  upstream's syntax) in place of xDSL's;
- registers our interpreter functions on xDSL's `TransformFunctions`, which
  xDSL's `transform-interpreter` pass instantiates: ours replace xDSL's for
  `tile_using_for` and `structured.match`, and add the ops xDSL does not
  interpret. The pass itself (its name, options, entry point) stays xDSL's.

The second step needs `xdsl.interpreters.transform`, whose package imports
every interpreter xDSL has (a quarter of a second): it is done when
`TransformFunctions` first hands its implementations to an interpreter (when
a transform pass runs), not before, so that the tools do not pay for it on
every start, and no module of ours meets a half-imported one. With `ctx`,
the ops also reach a context that loaded `transform` before.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.ir import Dialect, Operation

from linalg_ext.compat import after_import

if TYPE_CHECKING:
    from xdsl.interpreters.transform import TransformFunctions

_IMPL_DICT = "__impl_dict"
"""Where `xdsl.interpreter.register_impls` keeps a class's op impls (the
interpreter copies them from there each time a `TransformFunctions` is
registered): adding ours there is what makes xDSL's pass run them."""

TRANSFORM_FUNCTIONS_MODULE = "xdsl.interpreters.transform"

TRANSFORM_DIALECT = "transform"

_installed = False
_functions_registered = False


def install(ctx: Context | None = None) -> None:
    """Install our transform ops and impls (idempotent); with `ctx`, load
    the added ops into it if it has already loaded `transform`."""
    _install_once()
    if ctx is not None:
        _load_into(ctx)


def install_on_load(ctx: Context | None) -> None:
    """Install our transform ops now if `ctx` is None or has loaded
    `transform` already, else when `ctx` first loads `transform` (its
    registered loader is wrapped): what start-up pays for only where the
    dialect is used."""
    if _installed:
        # The ops are in xDSL's dialect: a later load copies them.
        install(ctx)
        return
    if ctx is None or TRANSFORM_DIALECT in {d.name for d in ctx.loaded_dialects}:
        install(ctx)
        return
    # Context has no public way to replace a registered loader.
    loaders = ctx._registered_dialects  # pyright: ignore[reportPrivateUsage]
    load = loaders.get(TRANSFORM_DIALECT)
    if load is None:
        install(ctx)
        return
    if getattr(load, "installs_transform_ops", False):
        return

    def load_with_our_ops() -> Dialect:
        install()
        return load()

    load_with_our_ops.installs_transform_ops = True  # pyright: ignore[reportFunctionMemberAccess]
    loaders[TRANSFORM_DIALECT] = load_with_our_ops


def _install_once() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    from xdsl.dialects.transform import Transform

    from linalg_ext.transform_ops.ops import TRANSFORM_OPS, TRANSFORM_REPLACEMENTS

    operations: list[type[Operation]] = Transform._operations  # pyright: ignore[reportPrivateUsage]
    known = {op.name for op in operations}
    operations.extend(op for op in TRANSFORM_OPS if op.name not in known)
    for replaced, replacement in TRANSFORM_REPLACEMENTS:
        if replacement not in operations:
            operations[:] = [op for op in operations if op is not replaced]
            operations.append(replacement)
    after_import(
        TRANSFORM_FUNCTIONS_MODULE,
        lambda: _register_on_first_use(sys.modules[TRANSFORM_FUNCTIONS_MODULE]),
    )


def _register_on_first_use(module: ModuleType) -> None:
    """Make `TransformFunctions`' first hand-over of its impls (to an
    interpreter) register ours first. Not at import: `xdsl.interpreters.transform`
    is often imported half-way through one of our own modules (any
    `xdsl.interpreters.*` import runs the package, which imports it), and our
    functions' modules would then meet that module half-initialised."""
    functions = module.TransformFunctions
    xdsl_impls = functions._impls.__func__

    def _impls(cls: type) -> object:
        register_functions()
        return xdsl_impls(cls)

    functions._impls = classmethod(_impls)


def register_functions() -> None:
    """Add our interpreter functions to xDSL's `TransformFunctions`
    (idempotent)."""
    global _functions_registered
    if _functions_registered:
        return
    _functions_registered = True
    from xdsl.interpreters.transform import TransformFunctions

    # The tiling models of linalg_ext ops are registered with the dialect.
    import linalg_ext.dialect  # noqa: F401
    from linalg_ext.transform_ops.annotation_functions import AnnotationFunctions
    from linalg_ext.transform_ops.distribution_functions import (
        DistributionFunctions,
    )
    from linalg_ext.transform_ops.fuse_ext_functions import FuseExtFunctions
    from linalg_ext.transform_ops.loop_peel import LoopPeelFunctions
    from linalg_ext.transform_ops.navigation import NavigationFunctions
    from linalg_ext.transform_ops.outlining_functions import OutliningFunctions
    from linalg_ext.transform_ops.reshaping_functions import ReshapingFunctions
    from linalg_ext.transform_ops.sequence_functions import SequenceFunctions
    from linalg_ext.transform_ops.tile_ext_functions import TileExtFunctions
    from linalg_ext.transform_ops.tiling_functions import TilingTransformFunctions
    from linalg_ext.transform_ops.unit_dims_functions import UnitDimsFunctions

    impls: dict[type[Operation], object] = getattr(TransformFunctions, _IMPL_DICT)
    for functions in (
        NavigationFunctions,
        TilingTransformFunctions,
        LoopPeelFunctions,
        TileExtFunctions,
        AnnotationFunctions,
        FuseExtFunctions,
        DistributionFunctions,
        SequenceFunctions,
        OutliningFunctions,
        ReshapingFunctions,
        UnitDimsFunctions,
    ):
        impls.update(getattr(functions, _IMPL_DICT))


def _load_into(ctx: Context) -> None:
    if TRANSFORM_DIALECT not in {dialect.name for dialect in ctx.loaded_dialects}:
        return
    from linalg_ext.transform_ops.ops import TRANSFORM_OPS, TRANSFORM_REPLACEMENTS

    loaded = {op.name for op in ctx.loaded_ops}
    for op in TRANSFORM_OPS:
        if op.name not in loaded:
            ctx.load_op(op)
    # Context has no public way to swap a loaded class.
    classes = ctx._loaded_ops  # pyright: ignore[reportPrivateUsage]
    for replaced, replacement in TRANSFORM_REPLACEMENTS:
        if classes.get(replacement.name) is replaced:
            classes[replacement.name] = replacement


def xdsl_transform_functions() -> type[TransformFunctions]:
    """xDSL's own implementations, as they are without ours (for comparing
    the two): a subclass registered afresh from xDSL's methods."""
    from xdsl.interpreter import register_impls
    from xdsl.interpreters.transform import TransformFunctions

    class XdslTransformFunctions(TransformFunctions):
        pass

    return register_impls(XdslTransformFunctions)
