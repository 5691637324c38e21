"""How every verifier of the project reports a broken rule."""

from __future__ import annotations

from typing import NoReturn

from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException


def op_error(op: Operation | type[Operation], reason: str) -> NoReturn:
    """Raise `'<op name>' op <reason>`, as MLIR words a verifier error."""
    raise VerifyException(f"'{op.name}' op {reason}")
