"""Create (or check) `.venv-xdsl`: plain xDSL, without this package.

    python tests/xdsl_compat/plain_venv.py [--venv .venv] [--plain .venv-xdsl]

The plain environment is the reference the xDSL compatibility check
(`run_xdsl_tests.py`) and the start-up benchmark (`bench/startup_bench.py`)
compare the project environment with. It holds exactly `xdsl[llvm]`, `lit`
and `filecheck`, at the versions `pip freeze` reports for the project venv,
and every dependency they pull in is constrained to the project venv's
version too: the two environments then differ only by this package (and the
project's own extras such as numpy, pytest and ruff).

The pins are written to `<plain>/.installed`; when they still match the
project venv the environment is left alone, so calling this is cheap.
Exit status 0 when the environment is ready, 1 when it could not be made.
The Makefile rule `venv-xdsl` and both scripts above call it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REQUIRED = ("xdsl", "lit", "filecheck")
OURS = "xdsl-linalg-ext"
STAMP_NAME = ".installed"


def frozen_pins(venv: Path) -> list[str]:
    """`pip freeze` of `venv`, without editable or direct-URL installs."""
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "freeze"],
        capture_output=True,
        text=True,
        check=True,
    )
    return [
        line.strip()
        for line in result.stdout.splitlines()
        if "==" in line and not line.startswith(("#", "-e")) and _name(line) != OURS
    ]


def _name(pin: str) -> str:
    return pin.split("==")[0].strip().lower().replace("_", "-")


def requirements(pins: list[str]) -> list[str]:
    """The plain environment's top-level requirements, at the pinned versions."""
    versions = {_name(line): line.split("==")[1] for line in pins}
    missing = [name for name in REQUIRED if name not in versions]
    if missing:
        raise SystemExit(f"the project venv lacks {', '.join(missing)}")
    return [
        f"xdsl[llvm]=={versions['xdsl']}",
        f"lit=={versions['lit']}",
        f"filecheck=={versions['filecheck']}",
    ]


def base_python(venv: Path) -> str:
    """The interpreter `venv` was made from, so both have the same Python."""
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sys; print(sys._base_executable)"],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def ensure_plain_venv(venv: Path, plain: Path, quiet: bool = False) -> bool:
    """Make `plain` match `venv`'s pins if it does not already; True when ready."""
    if not (venv / "bin" / "python").exists():
        print(f"plain venv: {venv} does not exist (run `make venv`)", file=sys.stderr)
        return False
    pins = frozen_pins(venv)
    wanted = "\n".join(requirements(pins) + ["# constraints:"] + pins) + "\n"
    stamp = plain / STAMP_NAME
    if stamp.exists() and stamp.read_text() == wanted:
        stamp.touch()  # up to date: tell make so
        return True
    say = (lambda *_: None) if quiet else print
    say(f"plain venv: creating {plain} with {' '.join(requirements(pins))}")
    plain_python = plain / "bin" / "python"
    try:
        subprocess.run(
            [base_python(venv), "-m", "venv", "--clear", str(plain)], check=True
        )
        constraints = plain / "constraints.txt"
        constraints.write_text("\n".join(pins) + "\n")
        pip = [str(plain_python), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, "-c", str(constraints), *requirements(pins)], check=True)
    except (subprocess.CalledProcessError, OSError) as error:
        print(f"plain venv: could not create {plain}: {error}", file=sys.stderr)
        return False
    stamp.write_text(wanted)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=REPO / ".venv")
    parser.add_argument("--plain", type=Path, default=REPO / ".venv-xdsl")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    return 0 if ensure_plain_venv(args.venv, args.plain, args.quiet) else 1


if __name__ == "__main__":
    sys.exit(main())
