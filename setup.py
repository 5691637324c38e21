"""Package discovery that pyproject.toml alone cannot express.

The source tree keeps passes in a top-level `passes/` directory (one module
or package per pass); they are installed as `linalg_ext.passes`, so that the
distribution adds a single top-level package and nothing named plain
`passes` that another `passes` on sys.path could shadow or collide with.
"""

from setuptools import find_packages, setup

PASSES = ["linalg_ext.passes"] + [
    f"linalg_ext.passes.{name}" for name in find_packages("passes")
]

setup(
    packages=find_packages(include=["linalg_ext", "linalg_ext.*"]) + PASSES,
    package_dir={"linalg_ext.passes": "passes"},
)
