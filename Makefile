# Everything runs from a project-local virtual environment that these rules
# create, and refresh whenever pyproject.toml changes. A fresh machine needs
# only Python 3.11 and pip.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all venv venv-xdsl test test-xdsl-compat lint lit pytest demo bench fuzz clean

all: test

# pip's output goes to $(INSTALL_LOG); on failure its end is shown.
INSTALL_LOG := $(VENV)/install.log

$(STAMP): pyproject.toml
	@echo "== installing the package and its test tools into $(VENV) (log: $(INSTALL_LOG))"
	@$(PYTHON) -m venv $(VENV)
	@{ $(BIN)/python -m pip install --upgrade pip \
	   && $(BIN)/python -m pip install -e '.[test]'; } > $(INSTALL_LOG) 2>&1 \
	  || { tail -n 40 $(INSTALL_LOG); \
	       echo "pip install failed; the whole log is $(INSTALL_LOG)" >&2; exit 1; }
	@touch $(STAMP)

venv: $(STAMP)

# make bench's extras, best effort (the bench says what is missing): the
# `bench` extra (matplotlib, for the chart), the `iree` extra (IREE's
# compiler and runtime, a column of the standing and model benches) and the
# `onnx` extra (onnx, onnxruntime, torch-mlir: the model bench), each on its
# own so that one without wheels for this machine does not keep out the others.
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): $(STAMP)
	@for extra in bench iree onnx; do \
	  $(BIN)/python -m pip install -e ".[$$extra]" >> $(INSTALL_LOG) 2>&1 \
	    || echo "note: the $$extra extra could not be installed (see $(INSTALL_LOG))"; \
	done
	@touch $(BENCH_STAMP)

# make demo's extra, best effort (without it the demo's ONNX part says how to
# get it and is skipped): `onnx` (onnx, onnxruntime, torch-mlir).
DEMO_STAMP := $(VENV)/.demo-installed

$(DEMO_STAMP): $(STAMP)
	@$(BIN)/python -m pip install -e ".[onnx]" >> $(INSTALL_LOG) 2>&1 \
	  || echo "note: the onnx extra could not be installed (see $(INSTALL_LOG))"
	@touch $(DEMO_STAMP)

# A second environment with plain xDSL (same versions as $(VENV), without this
# package): the reference for test-xdsl-compat and the start-up benchmark.
PLAIN_VENV := .venv-xdsl
PLAIN_STAMP := $(PLAIN_VENV)/.installed

$(PLAIN_STAMP): $(STAMP) tests/xdsl_compat/plain_venv.py
	$(BIN)/python tests/xdsl_compat/plain_venv.py --plain $(PLAIN_VENV)

venv-xdsl: $(PLAIN_STAMP)

PY_SOURCES := linalg_ext passes tests bench examples setup.py

# lint-imports checks the import contracts of pyproject.toml
# ([tool.importlinter]). It reads packages where Python finds them, and in the
# source tree `passes/` lies outside `linalg_ext/` (setup.py installs it as
# `linalg_ext.passes`), so it runs in a view of the installed layout: a fresh
# build/import-graph/linalg_ext/ of links to linalg_ext/'s entries and to
# passes/ as `passes`.
IMPORT_VIEW := build/import-graph
IMPORT_VIEW_BUILD = rm -rf $(IMPORT_VIEW) && mkdir -p $(IMPORT_VIEW)/linalg_ext \
	&& ln -s $(CURDIR)/linalg_ext/* $(IMPORT_VIEW)/linalg_ext/ \
	&& ln -s $(CURDIR)/passes $(IMPORT_VIEW)/linalg_ext/passes
LINT_IMPORTS = $(IMPORT_VIEW_BUILD) && (cd $(IMPORT_VIEW) \
	&& $(CURDIR)/$(BIN)/lint-imports --no-logo --no-cache $(CURDIR)/pyproject.toml)

# pyright (standard mode, [tool.pyright] in pyproject.toml) type-checks
# linalg_ext/ and passes/. It resolves `linalg_ext.passes` through the same
# view (an extraPath), so it runs after LINT_IMPORTS has built it. The PyPI
# `pyright` wheel bundles pyright's JavaScript and runs it on the `node` found
# on PATH (PYRIGHT_PYTHON_GLOBAL_NODE); without one it would download a node
# (nodeenv), which cannot work here, so a missing node is reported instead.
# PYRIGHT_PYTHON_IGNORE_WARNINGS skips its look-up of a newer release.
PYRIGHT = { command -v node > /dev/null \
	  || { echo "pyright needs node (>= 14) on PATH" >&2; false; }; } \
	&& PYRIGHT_PYTHON_GLOBAL_NODE=1 PYRIGHT_PYTHON_IGNORE_WARNINGS=1 \
	  $(BIN)/pyright

## make test: the whole suite: ruff, the import contracts (lint-imports), pyright,
## lit over tests/filecheck, pytest over tests/unit (both spread over the machine's
## cores).
test: $(STAMP)
	@status=0; \
	$(BIN)/ruff check $(PY_SOURCES) && $(BIN)/ruff format --check $(PY_SOURCES) \
		&& ($(LINT_IMPORTS)) && $(PYRIGHT) || status=1; \
	$(BIN)/lit -sv --time-tests tests/filecheck || status=1; \
	$(BIN)/python -m pytest -q -n auto --durations=15 tests/unit || status=1; \
	exit $$status

## make test-xdsl-compat: xDSL 0.74's own FileCheck tests of the dialects and
## passes we touch (from its PyPI sdist, cached in .cache/), run in $(VENV) and
## in plain xDSL ($(PLAIN_VENV)); fails when any test's status or xdsl-opt
## output differs. See tests/xdsl_compat/README.md.
test-xdsl-compat: $(PLAIN_STAMP)
	$(BIN)/python tests/xdsl_compat/run_xdsl_tests.py --jobs 2

lint: $(STAMP)
	$(BIN)/ruff check $(PY_SOURCES)
	$(BIN)/ruff format --check $(PY_SOURCES)
	$(LINT_IMPORTS)
	$(PYRIGHT)

lit: $(STAMP)
	$(BIN)/lit -sv tests/filecheck

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto tests/unit

## make demo: parse, verify and print a program written with linalg_ext ops,
## through the stock xdsl-opt, then run it on the interpreter; then pad fusion
## (a square padded, 1024² -> 1280²) before and after fuse-pad, bufferized,
## lowered to LLVM in Python, JIT-compiled, checked, timed, peak memory measured;
## last, an ONNX model end to end (the zoo's attention, built in code): saved,
## imported by linalg-ext-import (torch-mlir), compiled by compile_model, run and
## timed against onnxruntime (installs the [onnx] extra first, best effort;
## without it that part says how to get it).
demo: $(DEMO_STAMP)
	@echo "== 1. examples/demo.mlir, an attention block written with linalg_ext ops"
	@echo "==    (batch_matmul, softmax, layer_norm, topk), as the stock xdsl-opt parses,"
	@echo "==    verifies and prints it:"
	@PYTHONWARNINGS=ignore::DeprecationWarning $(BIN)/xdsl-opt examples/demo.mlir
	@echo "== verified: every linalg_ext op above passed its verifier."
	@echo
	@echo "== 2. the same program run on the interpreter (linalg-ext-run, random inputs,"
	@echo "==    seed 0); its three results: the normalised attention output, the two"
	@echo "==    largest scores of each row and their indices:"
	@PYTHONWARNINGS=ignore::DeprecationWarning $(BIN)/linalg-ext-run examples/demo.mlir --seed 0
	@echo
	@PYTHONWARNINGS=ignore::DeprecationWarning $(BIN)/python examples/pad_fusion_demo.py
	@echo
	@PYTHONWARNINGS=ignore::DeprecationWarning $(BIN)/python examples/models/demo.py
	@echo
	@echo "== next: docs/tutorial.md"

## make fuzz: the differential fuzzer (docs/fuzzing.md): N seeds (from SEED),
## each one random valid program of each family (mixed, tiling, contraction), through every
## pass and pipeline we ship, on JOBS processes; interpreter before == after ==
## compiled. Reproducers of failures
## go to build/fuzz/. `make test` runs a fixed-seed slice of it.
N ?= 200
SEED ?= 0
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/fuzz.py -n $(N) --seed $(SEED) --jobs $(JOBS)

## make bench: the benchmarks (medians, side by side): compiled kernels (our
## lowering + llvmlite vs mlir-opt-22 | mlir-runner-22 -O3 vs numpy), the interpreter
## (ours vs stock xDSL vs numpy), fuse-pad's benefit compiled by upstream,
## linalg-fuse-elementwise-ext's compile time on chains of 100..10000 ops vs upstream,
## its effect on compiled code (softmax and a sum of squares, unfused vs fused),
## xdsl-opt's start-up with our package installed vs plain xDSL, and fuse_ext's
## compile time on 16..1000 residual blocks vs upstream's transform.structured.fuse
## plus attention (seq 4096) unfused vs flash form, time and peak memory
## (progress on stderr); a matmul and a row sum compiled in each fast-math mode
## (none, contract, reassoc, arcp, fast); the per-call overhead from Python (ours,
## with and without out=, vs numpy and IREE); then the standing of our compiled code against
## upstream, IREE and numpy on issue 19's workloads, with the machine's measured
## peak, written to build/bench/results.json and (matplotlib) build/bench/standing.png;
## last, whole models: the zoo's ONNX families at medium size, onnxruntime (one
## thread) vs ours (compile_model's defaults, exact and fast) vs IREE, with compile
## time and the error against onnxruntime (build/bench/models.json; skipped
## without the [onnx] extra).
bench: $(BENCH_STAMP)
	$(BIN)/python bench/native_bench.py
	$(BIN)/python bench/interpreter_bench.py
	$(BIN)/python bench/fuse_pad_bench.py
	$(BIN)/python bench/fuse_elementwise_bench.py
	$(BIN)/python bench/fusion_cost_bench.py
	$(BIN)/python bench/startup_bench.py
	$(BIN)/python bench/fuse_ext_bench.py
	$(BIN)/python bench/fast_math_bench.py
	$(BIN)/python bench/call_bench.py
	$(BIN)/python bench/threads_bench.py
	$(BIN)/python bench/standing_bench.py --json build/bench/results.json \
	  --chart build/bench/standing.png
	$(BIN)/python bench/model_bench.py --json build/bench/models.json

clean:
	rm -rf $(VENV) $(PLAIN_VENV) build *.egg-info .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
