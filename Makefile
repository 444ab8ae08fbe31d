# `make run` and `make test` work on a fresh machine with Python 3.11; everything lives in .venv.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
LINTED := src tests $(wildcard benchmarks)
STAMP := $(VENV)/.installed
# The compiled engine (mypyc): rebuilt when one of its sources changes; plain Python if no compiler.
ENGINE := src/cardhall/_compiled.json
ENGINE_SOURCES := $(shell $(PYTHON) src/cardhall/engine_build.py --sources)

.PHONY: setup run test lint format clean

setup: $(STAMP) $(ENGINE)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all]'
	touch $(STAMP)

$(ENGINE): $(STAMP) $(ENGINE_SOURCES)
	$(BIN)/python src/cardhall/engine_build.py

run: setup
	$(BIN)/cardhall play hokm --seat 0 --bots rules,rules

lint: setup
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

test: setup lint
	$(BIN)/python -m pytest

format: setup
	$(BIN)/ruff format $(LINTED)
	$(BIN)/ruff check --fix $(LINTED)

clean:
	$(PYTHON) src/cardhall/engine_build.py --clean
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
