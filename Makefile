# polytable — the two commands: `make run` (set up and start) and `make test` (set up and check).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The compiled engine's sources: editing one rebuilds the extensions on the next make.
NATIVE := setup.py $(shell find src -name '*.c' -o -name '*.h')

.PHONY: run play test check lint typecheck unit fast bench clean format

$(STAMP): pyproject.toml $(NATIVE)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: set up, then start the web app on an embedded SQLite database (prints the address)
run: $(STAMP)
	bash scripts/npm-assets.sh
	$(BIN)/polytable serve

## play: the terminal game menu
play: $(STAMP)
	$(BIN)/polytable play

## test: set up, then ruff, mypy --strict and the whole pytest suite
test: $(STAMP) lint typecheck unit

## check: the fast feedback loop: ruff, mypy --strict and the tests not marked slow (no browser, Node,
## OpenSpiel or server processes); `make test` still runs everything
check: $(STAMP) lint typecheck fast

fast: $(STAMP)
	$(BIN)/pytest -n 2 -q -p no:cacheprovider -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	bash scripts/ensure-chromium.sh
	bash scripts/npm-assets.sh
	$(BIN)/pytest -n 2 -q -p no:cacheprovider

format: $(STAMP)
	$(BIN)/ruff format src tests benchmarks
	$(BIN)/ruff check --fix src tests benchmarks

## bench: every benchmark (figures are printed, never asserted)
bench: $(STAMP)
	$(BIN)/polytable bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
