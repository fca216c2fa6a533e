# FileGram: `make demo` runs the main job end to end, `make test` runs the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# `make demo` needs only the simulator's document writers: a small .venv (no test extras), a
# plain (not editable) install, which builds without setuptools' editable-mode warnings; an
# existing development install (`make install`) is used as it is.
DEMO_STAMP := $(VENV)/.demo-stamp
# Everything the tests and the demo exercise: OCR, the MCP SDK, pyarrow for the official data
# layout, ActivityWatch's datastore for the side-by-side store benchmark and the simulator's
# document writers, cryptography for sync, Ray for the scale engine, litellm (the tests talk to
# a fake model server) and matplotlib (--plot). (A user's own install needs none of them:
# pip install . is about 146 MB.)
EXTRAS ?= dev,ocr,mcp,bench,official,simulator,sync,scale,llm,plot

.PHONY: install demo test lint lint-imports run bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[$(EXTRAS)]'
	touch $(STAMP)

install: $(STAMP)

$(DEMO_STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q '.[simulator]'
	touch $(DEMO_STAMP)

# -P: the installed package, not the checkout's filegram/ folder of the same name
demo: $(if $(wildcard $(STAMP)),$(STAMP),$(DEMO_STAMP))
	$(BIN)/python -P -m filegram.bench.demo --fixtures tests/fixtures $(DEMO_ARGS)

# Three pytest-xdist workers on the two cores: most of the suite waits (the gaps a watching
# recorder needs, a live simulation, daemons starting), two workers left a core idle half the
# time (load average about 1; docs/testing.md). Every test is safe in parallel: its own home,
# port 0, an Xvfb display of its own choosing; a test file, or a folder with an expensive
# session fixture, stays on one worker (tests/conftest.py). TEST_WORKERS=0: serial.
TEST_WORKERS ?= 3
test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile --durations=10

lint: $(STAMP) lint-imports
	$(BIN)/ruff check .

# import-linter reads the installed layout (the subpackages live in root folders here).
lint-imports: $(STAMP)
	rm -rf build/lint-imports
	$(BIN)/pip install -q --no-deps --target build/lint-imports . >/dev/null
	cd build && PYTHONPATH=lint-imports ../$(BIN)/lint-imports ../pyproject.toml

# Start the daemon on your own folders: make run ROOTS="~/Documents ~/notes"
run: $(STAMP)
	$(BIN)/filegram start --foreground $(foreach r,$(ROOTS),--root $(r))

bench: $(STAMP)
	$(BIN)/filegram bench perf

clean:
	rm -rf $(VENV) build *.egg-info demo-out test-artifacts
