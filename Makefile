# Two commands on a fresh machine: `make demo` (the demo class, graded end to end) and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: demo test venv chromium

venv: $(STAMP)

$(STAMP): requirements.txt requirements-test.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-test.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m grader demo

test: $(STAMP) chromium
	$(PY) -m pytest -q --durations=15 tests

# The browser the tests open pages in (tests/browser.py): Debian's chromium, installed once, as root.
chromium:
	@command -v chromium >/dev/null 2>&1 || { echo "installing chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
