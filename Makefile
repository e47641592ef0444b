# Two entry points: `make demo` and `make test`. Both build .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lowest docs bench clean

$(BIN)/threefold: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

demo: $(BIN)/threefold
	$(BIN)/threefold demo

test: $(BIN)/threefold
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The core's tests at the lowest dependency versions pyproject.toml allows (.ci/run runs it).
lowest: $(BIN)/threefold
	bash .ci/lowest

# The documentation site, with every warning an error; `mkdocs serve` to read it live.
docs: $(BIN)/threefold
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir build/site

bench: $(BIN)/threefold
	$(BIN)/python benchmarks/pipeline.py

clean:
	rm -rf $(VENV) .venv-lowest build src/*.egg-info .pytest_cache .ruff_cache .mypy_cache
