# Two entry points: `make demo` and `make test`. Both build .venv from pyproject.toml.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean

$(BIN)/memstrata: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	touch $@

demo: $(BIN)/memstrata
	$(BIN)/memstrata demo

test: $(BIN)/memstrata
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

bench: $(BIN)/memstrata
	$(BIN)/python benchmarks/pipeline.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .ruff_cache
