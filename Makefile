# Two commands for a fresh machine: `make run` (the main job) and `make test`.
# Both create .venv if missing. `make run` installs only what the main job needs (no GCP
# stack); `make test` adds the dev tools and the `gcp` extra (Dataflow client + Beam's
# stager tools), so the tests also build the Dataflow job graph and stage the package.
VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.installed-stamp
DEV_STAMP := $(VENV)/.installed-dev-stamp
PYTHON  ?= python3

.PHONY: run test lint bench clean clean-kernels

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e .
	touch $(STAMP)

$(DEV_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install -q -e ".[dev,gcp]"
	touch $(DEV_STAMP)

run: $(STAMP)
	$(VENV)/bin/wordle-lab run --config configs/default.yaml

test: $(DEV_STAMP)
	$(PY) -m pytest -q

# ruff, then mypy over wordle_core and pipelines ([tool.mypy] in pyproject.toml: strict on
# the public API, wordle_core.api)
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check wordle_core pipelines tests benchmarks
	$(VENV)/bin/mypy

# The engine's quick figures; `$(PY) benchmarks/harness.py --list` shows every case
# (docs/benchmarks.md), `--compare REV` measures REV against this tree.
bench: $(STAMP)
	$(PY) benchmarks/harness.py matrix simulate strategies kt-eliminated

# numba's cache checks only each compiled function's own file, not its callees' files
clean-kernels:
	find wordle_core -name '*.nbi' -delete -o -name '*.nbc' -delete

clean: clean-kernels
	rm -rf $(VENV) .pytest_cache .ruff_cache
