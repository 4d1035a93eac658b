# Pandora Memory: `make dev` runs the service locally, `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SAM_VENV := .tools/sam
SAM := $(SAM_VENV)/bin/sam
SAM_VERSION := 1.170.0
export SAM_CLI_TELEMETRY := 0

.DEFAULT_GOAL := help
.PHONY: help install dev test lint typecheck unit validate build sam-check bench openapi clean

help:
	@echo "make dev        run the API locally on its embedded AWS stack (http://127.0.0.1:3000)"
	@echo "make test       lint, type-check and run the whole test suite offline"
	@echo "make sam-check  sam validate --lint and sam build (needs Python 3.12 for the build)"
	@echo "make bench      run the benchmarks under bench/ and write docs/benchmarks.md"

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Pandora needs Python 3.11 or newer as '$(PYTHON)' (set PYTHON=/path/to/python3.11)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy layers/pandora/pandora_memory devstack/pandora_devstack functions tests bench

unit: install
	$(BIN)/pytest

test: lint typecheck unit

dev: install
	$(BIN)/python -m pandora_devstack

# --- SAM: its own virtualenv so its pins never fight the project's -------------------------------
# The shim pyenv puts on PATH may exist yet refuse to run, so a candidate counts only if it runs.
PY312 := $(firstword $(foreach candidate,$(shell command -v python3.12 2>/dev/null) \
	$(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12),\
	$(shell $(candidate) -c 'print("$(candidate)")' 2>/dev/null)))

$(SAM):
	$(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet aws-sam-cli==$(SAM_VERSION)

validate: $(SAM)
	$(SAM) validate --lint --template template.yaml

build: $(SAM)
	@[ -n "$(PY312)" ] || { echo "sam build needs a Python 3.12 interpreter (none on PATH or under pyenv)"; exit 1; }
	PATH="$(dir $(PY312)):$$PATH" $(SAM) build --template template.yaml

sam-check: validate build

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .tools .aws-sam .pytest_cache .mypy_cache .ruff_cache
