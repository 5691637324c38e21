"""Each split of each invalid_*.mlir fails on its own, with its own message.

lit checks the messages in order over the whole file; this checks them split
by split, so a split that verifies by accident cannot pass by borrowing a
later split's message.
"""

from __future__ import annotations

import re

import pytest
from xdsl.utils.exceptions import ParseError, VerifyException

from helpers import FILECHECK_DIALECT_DIR, parse_module

CHECK = re.compile(r"^// CHECK: (.*)$", re.M)


def splits() -> list:
    return [
        pytest.param(text, CHECK.findall(text), id=f"{path.stem}-{index}")
        for path in sorted(FILECHECK_DIALECT_DIR.glob("invalid_*.mlir"))
        for index, text in enumerate(path.read_text().split("// -----"))
        if "func.func" in text
    ]


@pytest.mark.parametrize(("text", "expected"), splits())
def test_split_fails_with_its_message(text, expected):
    assert len(expected) == 1, "each split checks exactly one message"
    with pytest.raises((ParseError, VerifyException)) as failure:
        parse_module(text)
    assert expected[0] in str(failure.value)
