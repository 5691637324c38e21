"""`linalg_ext.yield`: the terminator of the regions of scan, scatter, topk and custom.

Its verifier accepts the parents in `YieldOp.PARENTS`, which the package's
`__init__` sets once those ops are defined (they import this one).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Attribute, Operation
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import IsTerminator, Pure

from linalg_ext.verification import op_error


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """Terminator of the regions of `scan`, `scatter`, `topk` and `custom`."""

    name = "linalg_ext.yield"

    traits = traits_def(IsTerminator(), Pure())

    PARENTS: ClassVar[tuple[type[Operation], ...]] = ()

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, self.PARENTS):
            names = ", ".join(f"'{p.name}'" for p in self.PARENTS)
            found = "no parent" if parent is None else f"'{parent.name}'"
            op_error(self, f"expects its parent op to be one of {names}, got {found}")
