# FileGram: `make demo` runs the main job end to end, `make test` runs the tests.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test lint run bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/python -m filegram.demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check .

# Start the daemon on your own folders: make run ROOTS="~/Documents ~/notes"
run: $(STAMP)
	$(BIN)/filegram start --foreground $(foreach r,$(ROOTS),--root $(r))

bench: $(STAMP)
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/filegram bench perf

clean:
	rm -rf $(VENV) build *.egg-info demo-out test-artifacts
