# The two quick-start commands. Each creates .venv when missing, so a fresh machine with only
# Python is enough.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: demo test test-fast typecheck lint format bench-check table web clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/packing best --roll 3,2,3,0,1

# The web companion on http://127.0.0.1:8000 (Ctrl-C stops it; PORT=0 picks any free port).
PORT ?= 8000
web: $(STAMP)
	$(VENV)/bin/tabletop-web --port $(PORT)

# The whole suite, on every core (pytest-xdist; -n0 runs it in one process, for debugging).
test: $(STAMP)
	$(PY) -m pytest

# The suite without the tests marked slow (long brute-force cross-checks, many random games, a
# Dask cluster): the quick loop while editing. `make test` still runs everything.
test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow"

# The README's phone screenshots of the web companion (docs/images/), taken by its browser tests
# in the system's Chromium (apt-get install chromium).
.PHONY: screenshots
screenshots: $(STAMP)
	WEB_SCREENSHOTS=1 $(PY) -m pytest -n0 -p no:cacheprovider tests/webapp/test_browser.py \
		-k "grab_helper_agrees or advisor"

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

# --- release checks: the dependency floors, a core-only install, the sdist --------------------
# Each builds a virtual environment of its own beside .venv (gitignored: .venv-*), so none
# disturbs the development one. .ci/run names the Python each runs on; pyproject's classifiers
# list exactly those.
.PHONY: test-floors test-core sdist-check
FLOORS_VENV := .venv-floors
CORE_VENV := .venv-core
SDIST_VENV := .venv-sdist
FLOORS_PYTHON ?= $(PYTHON)
CORE_PYTHON ?= $(PYTHON)
SDIST_PYTHON ?= $(PYTHON)
# What the floors install: the core, the runners, and the extras whose floors the run exercises
# (with httpx, FastAPI's test client, and SciPy, the tests' reference for the intervals, at the
# test extra's floors).
FLOORS_EXTRAS := test-core,plot,progress,completion,rl,compiled,web

# The declared minimum of every direct dependency, pinned by a constraints file generated from
# pyproject.toml: the suite without its slow tests (what needs an extra not installed here is
# skipped), then both plot commands.
$(FLOORS_VENV)/.installed: pyproject.toml tools/constraints_from_pyproject.py
	rm -rf $(FLOORS_VENV)
	$(FLOORS_PYTHON) -m venv $(FLOORS_VENV)
	$(FLOORS_VENV)/bin/python tools/constraints_from_pyproject.py pyproject.toml > $(FLOORS_VENV)/floors.txt
	$(FLOORS_VENV)/bin/python -m pip install --quiet -c $(FLOORS_VENV)/floors.txt -e '.[$(FLOORS_EXTRAS)]' httpx scipy
	touch $@

test-floors: $(FLOORS_VENV)/.installed
	$(FLOORS_VENV)/bin/python -m pip freeze --exclude-editable | grep -i -E '^(ortools|numpy|platformdirs|matplotlib|scipy|tqdm|shtab|pettingzoo|gymnasium|numba|fastapi|uvicorn|segno|httptools|uvloop|httpx|pytest|pytest-xdist|hypothesis)=='
	$(FLOORS_VENV)/bin/python -m pytest -p no:cacheprovider -m "not slow" -rfEs
	$(FLOORS_VENV)/bin/packing plot plan --roll 3,2,3,0,1 --truck '#####/###../#####' --height 3 \
		--out $(FLOORS_VENV)/plan.png
	$(FLOORS_VENV)/bin/packing plot deck --out $(FLOORS_VENV)/pictures

# The core and the test runners alone (the test-core extra): the suite but its slow cross-checks
# (make test runs them), each test that
# needs an extra skipped with the command that installs it (-rs lists the reasons).
$(CORE_VENV)/.installed: pyproject.toml
	rm -rf $(CORE_VENV)
	$(CORE_PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/python -m pip install --quiet -e '.[test-core]'
	touch $@

test-core: $(CORE_VENV)/.installed
	$(CORE_VENV)/bin/python tools/no_extras.py
	$(CORE_VENV)/bin/python -m pytest -p no:cacheprovider -m "not slow" -rfEs

# The source release: build the sdist and a wheel from it, check both (twine check --strict; the
# sdist holds every tracked file, the wheel its licence metadata), install the sdist into a fresh
# environment, answer the demo's query from there, and run tests of the unpacked sdist: the ones
# that read files beside the packages, and every module's doctests (SDIST_TESTS= runs them all).
SDIST_TESTS ?= tests/test_docs.py tests/test_layers.py tests/test_packaging.py \
	tests/test_readme.py tests/packing/test_golden.py tests/packing/test_table.py \
	tests/express/test_rules.py arena packing express
sdist-check:
	rm -rf $(SDIST_VENV)
	$(SDIST_PYTHON) -m venv $(SDIST_VENV)
	$(SDIST_VENV)/bin/python -m pip install --quiet build twine
	$(SDIST_VENV)/bin/python -m build --outdir $(SDIST_VENV)/dist . > $(SDIST_VENV)/build.log
	$(SDIST_VENV)/bin/python -m twine check --strict $(SDIST_VENV)/dist/*
	$(SDIST_VENV)/bin/python tools/check_dist.py $(SDIST_VENV)/dist
	mkdir -p $(SDIST_VENV)/src
	tar -xzf $(SDIST_VENV)/dist/*.tar.gz -C $(SDIST_VENV)/src
	$(SDIST_VENV)/bin/python -m pip install --quiet "$$(ls $(SDIST_VENV)/dist/*.tar.gz)[test-core]"
	cd /tmp && $(CURDIR)/$(SDIST_VENV)/bin/packing best --roll 3,2,3,0,1 --top 3
	cd $(SDIST_VENV)/src/* && ../../bin/python -m pytest -p no:cacheprovider -m "not slow" -rfEs $(SDIST_TESTS)

clean:
	rm -rf $(VENV) $(FLOORS_VENV) $(CORE_VENV) $(SDIST_VENV) build *.egg-info docs/_build
