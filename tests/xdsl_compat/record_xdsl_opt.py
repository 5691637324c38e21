"""Run `xdsl-opt` and keep a record of what it printed.

    python record_xdsl_opt.py RECORD_DIR TREE TEST_FILE xdsl-opt ARGS...

`run_xdsl_tests.py` has lit substitute every `xdsl-opt` of xDSL's RUN lines by
this script, so each invocation behaves exactly as before (same stdin, stdout,
stderr and exit status, passed through unchanged) and additionally leaves one
JSON file under RECORD_DIR/<test file relative to TREE>/: the arguments, a hash
of the input, the output, the diagnostics and the exit status. Comparing these
records between two environments shows differences that the tests' CHECK
lines do not look at. Paths under TREE and the environment's prefix are
written as `<tree>` and `<venv>` so that records from two environments (two
copies of the tests, two venvs) compare equal when the behaviour does.

Standard library only: it runs under each environment's own Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path


def normalise(text: str, tree: str) -> str:
    """`text` with the paths that legitimately differ between runs abstracted."""
    return text.replace(tree, "<tree>").replace(sys.prefix, "<venv>")


def main() -> int:
    record_dir, tree, test_file, *command = sys.argv[1:]
    stdin = b"" if sys.stdin.isatty() else sys.stdin.buffer.read()
    result = subprocess.run(command, input=stdin, capture_output=True)
    sys.stdout.buffer.write(result.stdout)
    sys.stdout.buffer.flush()
    sys.stderr.buffer.write(result.stderr)
    sys.stderr.buffer.flush()

    out_dir = Path(record_dir) / os.path.relpath(test_file, tree)
    out_dir.mkdir(parents=True, exist_ok=True)
    record = {
        "argv": [normalise(arg, tree) for arg in command],
        "stdin_sha256": hashlib.sha256(stdin).hexdigest() if stdin else None,
        "stdout": normalise(result.stdout.decode(errors="replace"), tree),
        "stderr": normalise(result.stderr.decode(errors="replace"), tree),
        "returncode": result.returncode,
    }
    # One file per invocation: the stages of a pipeline run concurrently.
    (out_dir / f"{uuid.uuid4().hex}.json").write_text(json.dumps(record))
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
