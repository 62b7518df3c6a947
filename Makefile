# make run    start the service on http://localhost:8000 (installs what it needs)
# make test   run the whole test suite (slow tests included)
# make bench  print throughput and latency figures
# make clients  generate the Python and TypeScript clients into clients/ (tools/clients.py; npm for TypeScript)
# make image-check  build the Dockerfile for real (debootstrap + buildah, as root) and run it
#
# The virtualenv is .venv; installs are skipped while pyproject.toml is unchanged.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: run test bench clients image-check clean-venv

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

clients: $(VENV)/.installed-test
	$(BIN)/python tools/clients.py --out clients

# Not in CI: it needs root, debootstrap, buildah and a few minutes (deploy/image-check.sh).
image-check:
	bash deploy/image-check.sh

clean-venv:
	rm -rf $(VENV)
