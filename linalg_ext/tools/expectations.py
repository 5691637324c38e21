"""Upstream-style `--verify-diagnostics` for `linalg-ext-opt`.

A test states the diagnostics it expects in comments, as MLIR's lit tests do:

    // expected-error@+1 {{'linalg_ext.topk' op expected 2 output operands}}
    %r = linalg_ext.topk ...

Kinds: `expected-error`, `expected-warning`, `expected-note`,
`expected-remark`. Where: on the designator's own line (no `@`), `@+N` /
`@-N` lines below / above it, `@above` / `@below` (the line just above /
below), `@N` (line N of the file) or `@unknown` (a diagnostic without a
location). Message: the text between the first `{{` and the last `}}` of the
line, found as a substring of the diagnostic's message (case-sensitive; `{{}}`
matches any). In the `-re` variants (`expected-error-re`), pieces of the
message inside a nested `{{...}}` are Python regular expressions and the rest
is literal, searched anywhere in the message.

Every produced diagnostic must match an expectation of its kind on its line
(each expectation matches once) and every expectation must be matched;
`verify` returns upstream's complaints otherwise:

    file:3:8: error: unexpected error: 'arith.addi' op ...
    file:2:6: error: expected error "wrong text" was not produced

Line numbers are those of the whole file, also under `--split-input-file`
(the driver gives each chunk's text with its line offset).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KINDS = ("error", "warning", "note", "remark")

_DESIGNATOR = re.compile(
    r"expected-(?P<kind>error|warning|note|remark)(?P<re>-re)?"
    r"(?P<rest>\s*(?:@|\{\{).*)$"
)
_WHERE_AND_MESSAGE = re.compile(
    r"\s*(?:@(?P<where>[+-]\d+|\d+|above|below|unknown))?\s*\{\{(?P<message>.*)\}\}"
)


class ExpectationSyntaxError(Exception):
    """A designator that is clearly meant as one but cannot be read (an
    upstream verifier ignores it silently, so a typo would make the test
    unable to fail)."""

    def __init__(self, file: str, line: int, column: int, message: str):
        super().__init__(f"{file}:{line}:{column}: error: {message}")
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Diagnostic:
    """A diagnostic the driver produced: `line` is None when it has no
    location (upstream's `<unknown>`)."""

    kind: str
    message: str
    file: str = "<unknown>"
    line: int | None = None
    column: int = 0

    @property
    def where(self) -> str:
        if self.line is None:
            return "<unknown>:0"
        return f"{self.file}:{self.line}:{self.column}"

    def render(self) -> str:
        """`file:line:col: kind: message`, upstream's one-line form."""
        return f"{self.where}: {self.kind}: {self.message}"


@dataclass
class Expectation:
    kind: str
    text: str
    """The message as written between the outer `{{` and `}}`."""
    target_line: int | None
    """The line the diagnostic must be at; None for `@unknown`."""
    is_regex: bool
    file: str
    line: int
    column: int
    """Where the designator is written (to report it when not produced)."""
    matched: bool = field(default=False, compare=False)

    def pattern(self) -> re.Pattern[str]:
        if not self.is_regex:
            return re.compile(re.escape(self.text))
        pieces: list[str] = []
        rest = self.text
        while (start := rest.find("{{")) != -1:
            end = rest.find("}}", start + 2)
            if end == -1:
                break
            pieces.append(re.escape(rest[:start]))
            pieces.append(f"(?:{rest[start + 2 : end]})")
            rest = rest[end + 2 :]
        pieces.append(re.escape(rest))
        return re.compile("".join(pieces))

    def matches(self, diagnostic: Diagnostic) -> bool:
        return (
            diagnostic.kind == self.kind
            and diagnostic.line == self.target_line
            and self.pattern().search(diagnostic.message) is not None
        )

    def not_produced(self) -> str:
        return (
            f"{self.file}:{self.line}:{self.column}: error: expected {self.kind} "
            f'"{self.text}" was not produced'
        )


def parse_expectations(
    text: str,
    file: str = "<stdin>",
    line_offset: int = 0,
    file_lines: int | None = None,
) -> list[Expectation]:
    """Every designator of `text`, a whole file or one chunk of it whose
    first line is line `line_offset + 1` of `file` (`file_lines` long; by
    default, the chunk is the end of the file). Raises ExpectationSyntaxError
    for a designator that cannot be read, a bad regex, or a line outside the
    file."""
    expectations: list[Expectation] = []
    lines = text.split("\n")
    total = file_lines if file_lines is not None else line_offset + len(lines)
    for index, source in enumerate(lines):
        line = line_offset + index + 1
        for found in re.finditer(r"expected-(?:error|warning|note|remark)", source):
            designator = _DESIGNATOR.match(source, found.start())
            if designator is None:
                continue  # prose that mentions a designator, as upstream
            column = found.start() + 1
            kind = designator["kind"]
            spelled = f"expected-{kind}{designator['re'] or ''}"
            parts = _WHERE_AND_MESSAGE.match(designator["rest"])
            if parts is None:
                raise ExpectationSyntaxError(
                    file,
                    line,
                    column,
                    f"cannot read '{spelled}': expected an optional @+N, @-N, "
                    "@N, @above, @below or @unknown, then {{message}}",
                )
            target = _target_line(parts["where"], line)
            if target is not None and not 1 <= target <= total:
                raise ExpectationSyntaxError(
                    file,
                    line,
                    column,
                    f"'{spelled}' points at line {target}, outside the file",
                )
            expectation = Expectation(
                kind=kind,
                text=parts["message"],
                target_line=target,
                is_regex=designator["re"] is not None,
                file=file,
                line=line,
                column=column,
            )
            try:
                expectation.pattern()
            except re.error as error:
                raise ExpectationSyntaxError(
                    file, line, column, f"bad regex in '{spelled}': {error}"
                ) from error
            expectations.append(expectation)
            break  # one designator a line, as upstream
    return expectations


def _target_line(where: str | None, line: int) -> int | None:
    if where is None:
        return line
    if where == "unknown":
        return None
    if where == "above":
        return line - 1
    if where == "below":
        return line + 1
    if where[0] in "+-":
        return line + int(where)
    return int(where)


def verify(expectations: list[Expectation], diagnostics: list[Diagnostic]) -> list[str]:
    """Match diagnostics against expectations; the complaints, upstream's
    wording, unexpected diagnostics first (in the order produced), then
    expectations not produced (in file order). Empty when all match."""
    complaints: list[str] = []
    for diagnostic in diagnostics:
        for expectation in expectations:
            if not expectation.matched and expectation.matches(diagnostic):
                expectation.matched = True
                break
        else:
            complaints.append(
                f"{diagnostic.where}: error: unexpected {diagnostic.kind}: "
                f"{diagnostic.message}"
            )
    complaints.extend(e.not_produced() for e in expectations if not e.matched)
    return complaints
