"""Where ops stand relative to each other in a block: what a pass checks
before it moves a computation to a new place (the new op must come before
every user of the values it replaces)."""

from __future__ import annotations

from xdsl.ir import Block, Operation


def ancestor_in(block: Block, op: Operation) -> Operation | None:
    """The op of `block` that is `op` or contains it, or None if `op` is not
    nested in `block`."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op
