# Two commands on a fresh machine: `make demo` (the demo class, graded end to end) and `make test` (the tests as CI
# runs them: all but the end-to-end runs marked extended, which `make test-all` adds). `make check` is the inner
# loop: the tests not marked slow, in about a minute.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: check chromium demo lint student-envs test test-all test-ready venv

venv: $(STAMP)

# uv (tools/uv.py) installs what pip would, compiled as pip compiles it: 17 s on two cores here, against 47 s of
# one core with pip. The kit itself is installed with the setuptools that requirements.txt pins (no isolated build
# environment).
UV := .cache/uv/bin/uv
UV_INSTALL := $(PYTHON) tools/uv.py --python $(PY)

# Last, the kit's Jupyter server extension (grader/formgrader: formgrader's Manage Submissions in the kit's words) is
# enabled in .venv by its file in jupyter_server_config.d, as an installed package enables its own.
EXTENSION := grader/formgrader/jupyter_server_config.json
$(STAMP): requirements.txt requirements-test.txt pyproject.toml $(EXTENSION) | $(UV)
	$(PYTHON) -m venv $(VENV)
	$(UV_INSTALL) --compile-bytecode -r requirements.txt
	$(UV_INSTALL) --compile-bytecode --no-deps -r requirements-test.txt
	$(UV_INSTALL) --no-deps --no-build-isolation -e .
	install -D -m 644 $(EXTENSION) $(VENV)/etc/jupyter/jupyter_server_config.d/attention_kit.json
	touch $(STAMP)

$(UV): requirements-uv.txt
	$(PYTHON) tools/uv.py install

demo: $(STAMP)
	$(PY) -m grader demo

# Two workers per core: a test spends about half its time waiting on subprocesses, servers and deadlines (five
# workers on two cores were slower on a fresh clone: 491 and 529 s of pytest against 450 to 486 s with four;
# with four, /proc/stat shows both cores busy for all but 5 s of the run).
WORKERS ?= $(shell echo $$(( 2 * $$(nproc) )))

# The kit's modules are compiled once before the tests, and the tests' processes keep the bytecode they compile
# even where PYTHONDONTWRITEBYTECODE is set (pytest's rewritten test modules, the copies of the kit the tests make):
# else every one of hundreds of grading, sandbox, nbgrader and pytest processes compiles them again (a run on a
# checkout: 749 core-seconds instead of 779).
KEEP_BYTECODE := env -u PYTHONDONTWRITEBYTECODE

RUN_TESTS := $(KEEP_BYTECODE) $(PY) -m pytest -q -n $(WORKERS) --dist loadscope --no-loadscope-reorder --durations=15

# The tests as CI runs them: every test but the end-to-end runs marked extended (EXTENDED in tests/conftest.py:
# other configurations and routes of paths that make test runs end to end), and of the students' environments
# the clean one only.
test: STUDENT_ENVS = clean
test: test-ready
	$(RUN_TESTS) -m "not extended" tests

# Every test: make test and the extended runs. Run it before a release, and after changing what an extended
# test covers (its entry in tests/conftest.py says what stays in make test).
test-all: test-ready
	$(RUN_TESTS) tests

# What the tests need is made side by side: the students' environments of the install tests (15 s on a fresh
# clone, with uv) are built in the background while .venv and chromium are made, and the tests that use them
# wait for them.
test-ready: student-envs
	@$(MAKE) --no-print-directory --output-sync=target -j2 $(STAMP) chromium $(NODE)
	@$(MAKE) --no-print-directory lint
	@$(PY) -m compileall -q grader tests

# One worker per core: serial, the fast tests took 70 s on two cores; with two workers, 46 to 60 s.
check: lint
	@$(PY) -m compileall -q grader tests
	$(KEEP_BYTECODE) $(PY) -m pytest -q -m "not slow" -n $$(nproc) --dist loadscope --no-loadscope-reorder tests

# ruff, configured in pyproject.toml: the lint rules and the formatting every file keeps (ruff format fixes it).
lint: $(STAMP)
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/ruff format --check --quiet .

# The browser the tests open pages in (tests/browser.py): Debian's chromium, installed once, as root.
chromium:
	@command -v chromium >/dev/null 2>&1 || { echo "installing chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# What the browser tests drive Chromium and check pages with (tests/pages_js/package.json: playwright-core, with
# no browser of its own, and axe-core), from the npm registry at the versions of its package-lock.json.
NODE := tests/pages_js/node_modules/.package-lock.json
$(NODE): tests/pages_js/package.json tests/pages_js/package-lock.json
	npm ci --prefix tests/pages_js --no-audit --no-fund --silent

# The students' environments of tests/release/test_student_install.py (STUDENT_ENVS, or every one), built (or
# checked, when cached in .cache/student-envs/) in the background by the standard library and uv: they need not
# wait for .venv.
student-envs: $(UV)
	$(PYTHON) -m tests.student_envs $(STUDENT_ENVS)

# The documentation site (docs/: Sphinx, MyST Markdown, furo), into build/docs; warnings are errors, as in
# tests/test_docs.py. linkcheck checks the links to other sites: a report, not a gate (sites come and go).
.PHONY: docs linkcheck
docs: $(STAMP)
	$(VENV)/bin/sphinx-build -n -W --keep-going -b html docs build/docs

linkcheck: $(STAMP)
	-$(VENV)/bin/sphinx-build -b linkcheck docs build/linkcheck
