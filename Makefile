# The two quick-start commands. Each creates .venv when missing, so a fresh machine with only
# Python is enough.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-fast typecheck lint format bench-check table clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/packing best --roll 3,2,3,0,1

# The whole suite, on every core (pytest-xdist; -n0 runs it in one process, for debugging).
test: $(STAMP)
	$(PY) -m pytest

# The suite without the tests marked slow (long brute-force cross-checks, many random games, a
# Dask cluster): the quick loop while editing. `make test` still runs everything.
test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow"

$(DEV_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(DEV_STAMP)

# mypy --strict over the packages, tests/ and benchmarks/ (the list is pyproject's [tool.mypy];
# the dev extra brings mypy).
typecheck: $(DEV_STAMP)
	$(PY) -m mypy

# ruff: the lint rules and the formatter's check (pyproject's [tool.ruff]); `make format` applies it.
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(DEV_STAMP)
	$(VENV)/bin/ruff format .

# Short correctness runs of the benchmarks: each exits non-zero when an answer differs from the
# recorded optimal tables (the perft idea: correctness and speed share one harness).
bench-check: $(STAMP)
	$(PY) -m benchmarks chains --quick
	$(PY) -m benchmarks solve --check

# The documentation site (docs/, Sphinx) and the example notebooks (examples/), each with its
# own extra installed into .venv beside the test extra.
DOCS_STAMP := $(VENV)/.installed-docs
EXAMPLES_STAMP := $(VENV)/.installed-examples

.PHONY: docs examples

$(DOCS_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,docs]'
	touch $(DOCS_STAMP)

# Warnings are errors; then every name of the packages' __all__ must have an entry in the
# built reference (tests/test_docs_site.py, run as a script on the build).
docs: $(DOCS_STAMP)
	$(PY) -m sphinx -E -W --keep-going -q -b html docs docs/_build/html
	$(PY) -m tests.test_docs_site docs/_build/html

$(EXAMPLES_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,examples]'
	touch $(EXAMPLES_STAMP)

# Runs every notebook of examples/ top to bottom in a fresh kernel; the stored files keep no
# outputs (tests/test_examples.py checks that).
examples: $(EXAMPLES_STAMP)
	$(PY) -m tests.test_examples

# Regenerate the sample deck's optimal table shipped in packing/data (about 5 s on 2 cores).
table: $(STAMP)
	rm -f packing/data/table-*.npz
	$(VENV)/bin/packing table build --workers 2 --out packing/data

clean:
	rm -rf $(VENV) build *.egg-info
