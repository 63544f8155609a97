# Junta: `make run` starts the whole app with demo accounts; `make test` runs every test.
# Both create .venv with a Python 3.12+ found by scripts/find-python, and install the exact
# versions (with hashes) of requirements/*.lock; `make lock` re-resolves those from pyproject.toml.

SHELL := /bin/sh
VENV := .venv
PY := $(VENV)/bin/python
PIP_FLAGS := --disable-pip-version-check --quiet
# `make run PORT=8001` when something else listens on 8000.
PORT ?= 8000
# The address that mails and calendar feeds link to: the one `make run` serves on, unless
# JUNTA_SITE_URL is set (in the environment or on the command line).
JUNTA_SITE_URL ?= http://127.0.0.1:$(PORT)
BASE_LOCK := requirements/base.lock
DEV_LOCK := requirements/dev.lock
# Universal locks: one file for every platform (markers pick what applies), for Python 3.12+.
# `make lock` keeps the pins still inside pyproject.toml's ranges; `make lock UPGRADE=1` takes
# the newest releases those ranges allow.
UV_COMPILE := $(PY) -m uv --quiet pip compile pyproject.toml --universal --python-version 3.12 \
	--generate-hashes --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)

.PHONY: run test lint fmt bench bench-diplomacy lock messages clean-venv help

help:
	@echo "make run    set up .venv and the database, then run web + worker + beat (Ctrl-C stops)"
	@echo "            on http://127.0.0.1:8000 (another port: make run PORT=8001)"
	@echo "make test   set up .venv with the dev extras and run every test"
	@echo "make lint   ruff, mypy and the import contracts (lint-imports)"
	@echo "make bench  the engine's speed per phase kind (make bench-diplomacy: against MILA"
	@echo "            diplomacy's Game.process(), in var/bench-venv; COMPARE=REV adds a revision)"
	@echo "make messages  extract the site's words into locale/es/LC_MESSAGES/django.po and the"
	@echo "            engine's into junta/engine/locale/es/LC_MESSAGES/django.po (to"
	@echo "            translate; run and test compile the .po files into .mo with gettext's msgfmt)"
	@echo "make lock   re-resolve requirements/base.lock and dev.lock from pyproject.toml's ranges"
	@echo "            (keeps current pins that still fit; make lock UPGRADE=1 takes the newest)"

$(VENV)/.created:
	@PYTHON=$$(./scripts/find-python) || exit 1; \
	echo "Creating $(VENV) with $$PYTHON ($$($$PYTHON --version))"; \
	$$PYTHON -m venv $(VENV) && $(PY) -m pip install $(PIP_FLAGS) --upgrade pip
	@touch $@

# The locked versions, checked against their hashes, then the project itself without dependencies.
$(VENV)/.installed: pyproject.toml $(BASE_LOCK) $(VENV)/.created
	$(PY) -m pip install $(PIP_FLAGS) --require-hashes -r $(BASE_LOCK)
	$(PY) -m pip install $(PIP_FLAGS) --no-deps -e .
	@touch $@

# dev.lock holds every pin of base.lock at the same version, so it stands for both.
$(VENV)/.installed-dev: pyproject.toml $(DEV_LOCK) $(VENV)/.created
	$(PY) -m pip install $(PIP_FLAGS) --require-hashes -r $(DEV_LOCK)
	$(PY) -m pip install $(PIP_FLAGS) --no-deps -e .
	@touch $@ $(VENV)/.installed

# The translations (*/LC_MESSAGES/*.po under settings.LOCALE_PATHS) are compiled into the
# .mo files Django reads by gettext's msgfmt (Debian's `gettext` package); the .mo files are not
# kept in git. --check refuses a .po whose placeholders do not match.
# Two trees: the site's (locale/) and the engine's own (junta/engine/locale/, its events and
# refusals and the game's data names), so that neither extraction touches the other's catalogue.
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po junta/engine/locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)
%.mo: %.po
	@command -v msgfmt >/dev/null || { echo "msgfmt is missing: apt-get install gettext"; exit 1; }
	msgfmt --check -o $@ $<

# Every marked word of the site into the Spanish catalogues, new ones untranslated (msgid only):
# django.po (Python and templates) and djangojs.po (static/js, `gettext(...)` or `_(...)`).
# translate them, then `make test` (tests/web/test_catalogues.py) says none is left. Only the
# file names are written beside each message, not the line numbers (nor the date of the run), so
# that moving code leaves the catalogue alone. The engine (junta/engine, no Django) is not read
# there: its words (the msgids its `gettext_noop` marks, words.py and data_words.py) go into a
# catalogue of its own, junta/engine/locale/es/LC_MESSAGES/django.po, by a second run from inside
# junta/engine (makemessages writes into the locale/ of the directory it runs in).
ENGINE_PO := junta/engine/locale/es/LC_MESSAGES/django.po
messages: $(VENV)/.installed
	$(PY) manage.py makemessages --locale es --domain django --add-location file --no-obsolete \
	  --ignore 'junta/engine/*' --ignore 'bench/*' --ignore 'tests/*' --ignore 'var/*' \
	  --ignore 'docs/*' --ignore 'scripts/*'
	$(PY) manage.py makemessages --locale es --domain djangojs --add-location file --no-obsolete \
	  --ignore 'junta/*' --ignore 'bench/*' --ignore 'tests/*' --ignore 'var/*' --ignore 'docs/*'
	cd junta/engine && ../../$(PY) ../../manage.py makemessages --locale es --domain django \
	  --add-location file --no-obsolete
	@# the extraction's date would change the files at every run
	sed -i '/^"POT-Creation-Date: /d' locale/es/LC_MESSAGES/django.po locale/es/LC_MESSAGES/djangojs.po \
	  $(ENGINE_PO)

run: $(VENV)/.installed $(MO_FILES)
	JUNTA_SITE_URL='$(JUNTA_SITE_URL)' $(PY) manage.py serve --port $(PORT)

# The whole run is timed: its duration is the last line printed (the goal: under 25 minutes on a
# 2-core machine with PostgreSQL and Redis). pytest runs in TEST_WORKERS processes (pytest-xdist;
# tests/workers.py gives each its own var folder, queues and cache keys; pytest-django its own
# test database). Each worker takes its tests in pytest-django's order (the transactional ones,
# which empty the tables, after the others); a module whose tests share a module-scoped fixture
# goes whole to one worker. `make test TEST_WORKERS=0` runs them all in one process.
TEST_WORKERS ?= 2
test: $(VENV)/.installed-dev $(MO_FILES)
	@start=$$(date +%s); status=0; \
	{ $(PY) -m ruff check . && $(PY) -m mypy && $(VENV)/bin/lint-imports \
	  && $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS); } || status=$$?; \
	took=$$(( $$(date +%s) - start )); \
	echo "make test took $$((took / 60)) min $$((took % 60)) s (goal: under 25 min on 2 cores)"; \
	exit $$status

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports

fmt: $(VENV)/.installed-dev
	$(PY) -m ruff check --fix .

bench: $(VENV)/.installed-dev
	$(PY) bench/engine.py --games 50

# The engine against MILA diplomacy's Game.process() (bench/engine.py --diplomacy), in a venv of
# its own: diplomacy is no dependency of Junta, and the engine needs nothing else. Never run by
# make test. `make bench-diplomacy COMPARE=REV` also runs the engine of git revision REV.
BENCH_VENV := var/bench-venv
$(BENCH_VENV)/.installed: bench/diplomacy.txt
	@PYTHON=$$(./scripts/find-python) || exit 1; \
	echo "Creating $(BENCH_VENV) with $$PYTHON ($$($$PYTHON --version))"; \
	rm -rf $(BENCH_VENV) && $$PYTHON -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install $(PIP_FLAGS) -r bench/diplomacy.txt
	@touch $@

bench-diplomacy: $(BENCH_VENV)/.installed
	$(BENCH_VENV)/bin/python bench/engine.py --games 50 --diplomacy $(if $(COMPARE),--compare $(COMPARE))

# dev.lock first (runtime + dev), then base.lock constrained to it: production runs the very
# versions that the tests ran with. uv comes from the dev extras, so from the current dev.lock.
lock: $(VENV)/.installed-dev
	$(UV_COMPILE) --extra dev -o $(DEV_LOCK)
	$(UV_COMPILE) -c $(DEV_LOCK) -o $(BASE_LOCK)

clean-venv:
	rm -rf $(VENV)
