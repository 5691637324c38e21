"""lit configuration for the FileCheck suite.

Tests run the tools of the environment lit itself runs in (the project's
virtual environment), so `xdsl-opt` is the stock driver with our universe
entry point installed, exactly as a user gets it.
"""

import os
import shutil
import sys

import lit.formats

config.name = "xdsl-linalg-ext"
config.test_format = lit.formats.ShTest(preamble_commands=[])
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]

venv_bin = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join(
    [venv_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
# Keep tool output free of colour codes and of warnings that FileCheck could
# trip over.
config.environment["PYTHONWARNINGS"] = "ignore::DeprecationWarning"
config.environment["NO_COLOR"] = "1"

# Tests that compare with upstream MLIR say `REQUIRES: mlir-opt-22`; they are
# reported as unsupported, not failed, on machines without it.
if shutil.which("mlir-opt-22"):
    config.available_features.add("mlir-opt-22")
