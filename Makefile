# make run    start the service on http://localhost:8000 (installs what it needs)
# make test   run the whole test suite (slow tests included)
# make bench  print throughput and latency figures
#
# The virtualenv is .venv; installs are skipped while pyproject.toml is unchanged.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: run test bench clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per install flavour; each is redone when pyproject.toml changes.
$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/gunicorn -c gunicorn.conf.py

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py

clean-venv:
	rm -rf $(VENV)
