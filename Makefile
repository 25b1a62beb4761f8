# The two quick-start commands. Each creates .venv when missing, so a fresh machine with only
# Python is enough.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test typecheck table clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/packing best --roll 3,2,3,0,1

test: $(STAMP)
	$(PY) -m pytest

# mypy --strict over both packages (the dev extra brings mypy).
typecheck: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev]'
	$(PY) -m mypy

# Regenerate the sample deck's optimal table shipped in packing/data (about 5 s on 2 cores).
table: $(STAMP)
	rm -f packing/data/table-*.npz
	$(VENV)/bin/packing table build --workers 2 --out packing/data

clean:
	rm -rf $(VENV) build *.egg-info
