# Junta: `make run` starts the whole app with demo accounts; `make test` runs every test.
# Both create .venv with a Python 3.12+ found by scripts/find-python.

SHELL := /bin/sh
VENV := .venv
PY := $(VENV)/bin/python
PIP_FLAGS := --disable-pip-version-check --quiet
# `make run PORT=8001` when something else listens on 8000.
PORT ?= 8000

.PHONY: run test lint fmt bench clean-venv help

help:
	@echo "make run    set up .venv and the database, then run web + worker + beat (Ctrl-C stops)"
	@echo "            on http://127.0.0.1:8000 (another port: make run PORT=8001)"
	@echo "make test   set up .venv with the dev extras and run every test"
	@echo "make lint   ruff"

$(VENV)/.created:
	@PYTHON=$$(./scripts/find-python) || exit 1; \
	echo "Creating $(VENV) with $$PYTHON ($$($$PYTHON --version))"; \
	$$PYTHON -m venv $(VENV) && $(PY) -m pip install $(PIP_FLAGS) --upgrade pip
	@touch $@

$(VENV)/.installed: pyproject.toml $(VENV)/.created
	$(PY) -m pip install $(PIP_FLAGS) -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV)/.created
	$(PY) -m pip install $(PIP_FLAGS) -e ".[dev]"
	@touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(PY) manage.py serve --port $(PORT)

test: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

fmt: $(VENV)/.installed-dev
	$(PY) -m ruff check --fix .

bench: $(VENV)/.installed-dev
	$(PY) bench/engine.py --games 50

clean-venv:
	rm -rf $(VENV)
