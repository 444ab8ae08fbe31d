# `make run` and `make test` work on a fresh machine with Python 3.11; everything lives in .venv.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
LINTED := src tests $(wildcard benchmarks)
STAMP := $(VENV)/.installed
# What running the server needs, and nothing more: a first `make run` installs only this.
RUN_STAMP := $(VENV)/.installed-server
# The compiled engine (mypyc): rebuilt when one of its sources changes; plain Python if no compiler.
ENGINE := src/cardhall/_compiled.json
ENGINE_SOURCES := $(shell $(PYTHON) src/cardhall/engine_build.py --sources)

.PHONY: setup run test quick lint format clean

setup: $(STAMP) $(ENGINE)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all]'
	touch $(STAMP) $(RUN_STAMP)

$(RUN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[server]'
	touch $(RUN_STAMP)

$(ENGINE): $(STAMP) $(ENGINE_SOURCES)
	$(BIN)/python src/cardhall/engine_build.py

# The server on SQLite (cardhall.db here). A compiled engine from an earlier `make setup` is kept up to
# date; without one the engine runs as plain Python. `make run PORT=8001 HOST=0.0.0.0` serves elsewhere
# than 127.0.0.1:8000; only values given on make's command line count (some shells export HOST as the
# machine's name, which would put the server on the network unasked).
RUN_OPTIONS := $(if $(filter command line,$(origin HOST)),--host $(HOST)) \
	$(if $(filter command line,$(origin PORT)),--port $(PORT))
run: $(RUN_STAMP)
	@if [ -f $(ENGINE) ]; then $(MAKE) --no-print-directory $(ENGINE); fi
	$(BIN)/cardhall serve $(strip $(RUN_OPTIONS))

lint: setup
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

# The tests keep their bytecode (`__pycache__`: pytest's rewritten test modules above all): under a shell
# that sets PYTHONDONTWRITEBYTECODE every run rewrote the asserts of every test module again, in each
# worker (collecting every test: 12 s of CPU, 5 s with the bytecode kept; benchmarks/tests.md).
test quick: export PYTHONDONTWRITEBYTECODE :=

# Every test: all but the serial ones on QUICK_WORKERS processes, then the serial ones in one (the slow
# tests of a browser, a real server or cluster, the bot tier's workers: deadlines that a second busy core
# would make flaky; tests/conftest.py marks them).
test: setup lint
	$(BIN)/python -m pytest -m "not serial" -n $(QUICK_WORKERS) --durations=10
	$(BIN)/python -m pytest -m serial --durations=20

# The quick run (README, "Testing"): every test not marked slow, on QUICK_WORKERS processes
# (pytest-xdist; each has its own PostgreSQL and Redis), the browser client's unit tests among them
# (tests/web/unit, `node --test`, through tests/web/test_web_unit.py: skipped without Node).
QUICK_WORKERS ?= 2
quick: setup
	$(BIN)/python -m pytest -m "not slow" -n $(QUICK_WORKERS) --durations=10

format: setup
	$(BIN)/ruff format $(LINTED)
	$(BIN)/ruff check --fix $(LINTED)

clean:
	$(PYTHON) src/cardhall/engine_build.py --clean
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
