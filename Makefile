# make run    start the service on http://localhost:8000 (installs what it needs)
# make test   run the whole test suite (slow tests included)
# make bench  print throughput and latency figures
# make clients  generate the Python and TypeScript clients into clients/ (tools/clients.py; npm for TypeScript)
# make image-check  build the Dockerfile for real (debootstrap + buildah, as root) and run it
#
# The virtualenv is .venv; installs are skipped while pyproject.toml, setup.py and the
# rules kernel (compiled at install when a C compiler is present) are unchanged.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PYTEST_ARGS ?=

.PHONY: run test bench clients image-check clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per install flavour; each is redone when one of its inputs changes.
INSTALL_INPUTS := pyproject.toml setup.py service/core/kernel_source.py $(wildcard service/core/kernel/*.py)
# The tests that run a second time on the interpreted kernel when the compiled one is in use.
KERNEL_TESTS ?= tests/core/test_kernel.py tests/core/test_show.py tests/core/test_show_properties.py \
	tests/core/test_play.py tests/core/test_play_properties.py tests/core/test_distribution.py \
	tests/core/game/test_game.py tests/core/game/test_deal_machine.py tests/core/game/test_playout.py \
	tests/core/game/test_game_claims.py tests/core/game/test_game_properties.py \
	tests/advice/test_advice_pegging.py tests/advice/test_advice_discards.py tests/advice/test_advice_bot.py \
	service/core service/advice

$(VENV)/.installed-run: $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: $(INSTALL_INPUTS) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(VENV)/.installed-run
	$(BIN)/gunicorn -c gunicorn.conf.py

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)
	@kernel=$$($(BIN)/python -c 'from service.core import engine; print(engine.KERNEL)'); \
	if [ "$$kernel" = compiled ]; then \
		echo "== the core's tests again, on the interpreted kernel =="; \
		CRIBBAGE_KERNEL=interpreted $(BIN)/python -m pytest -q $(KERNEL_TESTS); \
	else \
		echo "!! no compiled kernel ($$($(BIN)/python -c 'from service.core import engine; print(engine.WHY)')):" \
			"the suite ran on the interpreted one; tests/core/test_kernel.py built one to test the kernel itself"; \
	fi

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py

clients: $(VENV)/.installed-test
	$(BIN)/python tools/clients.py --out clients

# Not in CI: it needs root, debootstrap, buildah and a few minutes (deploy/image-check.sh).
image-check:
	bash deploy/image-check.sh

clean-venv:
	rm -rf $(VENV)
