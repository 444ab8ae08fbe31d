# `make run` and `make test` work on a fresh machine with Python 3.11; everything lives in .venv.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
LINTED := src tests $(wildcard benchmarks)
STAMP := $(VENV)/.installed

.PHONY: setup run test lint format clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all]'
	touch $(STAMP)

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
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
