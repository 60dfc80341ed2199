# polytable — the two commands: `make run` (set up and start) and `make test` (set up and check).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The compiled engine's sources: editing one rebuilds the extensions on the next make.
NATIVE := setup.py $(shell find src -name '*.c' -o -name '*.h')
# The web client and its unit tests: linted by ESLint and Prettier from build/npm-lint (scripts/npm-lint.sh).
JS     := "src/polytable/web/static/**/*.js" "tests/js/**/*.mjs"
NPMBIN := build/npm-lint/node_modules/.bin

.PHONY: run play test check lint typecheck unit fast nightly bench clean format

$(STAMP): pyproject.toml $(NATIVE)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: set up, then serve the table on this network on an embedded SQLite database (prints the address for
## phones and its QR code); ARGS passes options to `polytable serve`: make run ARGS=--https, ARGS=--local
run: $(STAMP)
	bash scripts/npm-assets.sh
	$(BIN)/polytable serve $(ARGS)

## play: the terminal game menu
play: $(STAMP)
	$(BIN)/polytable play

## test: set up, then ruff, ESLint, Prettier, mypy --strict and the whole pytest suite (with the JS unit tests)
## but the 100,000-action fuzz runs, which `make nightly` runs (their short versions stay)
test: $(STAMP) lint typecheck unit

## check: the fast feedback loop: ruff, mypy --strict and the tests not marked slow (no browser, Node,
## OpenSpiel or server processes); `make test` still runs everything
check: $(STAMP) lint typecheck fast

# The test runs cache compiled bytecode (and pytest's rewritten test modules) even where the environment
# asks Python not to: without the cache every worker compiles every module again at each run.
fast: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 -q -p no:cacheprovider -m "not slow"

## lint: ruff, then ESLint and Prettier over the web client (skipped without npm unless POLYTABLE_REQUIRE_NPM=1);
## each keeps a cache of the files it passed in build/npm-lint, as ruff and mypy do
lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	bash scripts/npm-lint.sh
	@if [ -x $(NPMBIN)/eslint ] && [ -x $(NPMBIN)/prettier ]; then \
	  echo "eslint + prettier --check (web client)"; \
	  $(NPMBIN)/eslint --cache --cache-location build/npm-lint/.eslintcache $(JS) && \
	  $(NPMBIN)/prettier --cache --cache-location build/npm-lint/.prettiercache --check --log-level warn $(JS); \
	else echo "JS lint skipped: ESLint/Prettier are not installed (no npm)"; fi

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	bash scripts/ensure-chromium.sh
	bash scripts/npm-assets.sh
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 -q -p no:cacheprovider -m "not nightly"

## nightly: the 100,000-action differential fuzz runs of every compiled kernel (about 3 CPU minutes)
nightly: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n 2 -q -p no:cacheprovider -m nightly

format: $(STAMP)
	$(BIN)/ruff format src tests benchmarks examples
	$(BIN)/ruff check --fix src tests benchmarks examples
	bash scripts/npm-lint.sh
	@if [ -x $(NPMBIN)/prettier ]; then $(NPMBIN)/prettier --write --log-level warn $(JS); fi

## bench: every benchmark (figures are printed, never asserted)
bench: $(STAMP)
	$(BIN)/polytable bench

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
	find src -name '*.so' -delete
