# Pandora Memory: `make dev` runs the service locally, `make test` runs every check.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The benchmarks' extra (plots, the BM25 baseline); bench/ is type-checked and smoke-tested too.
BENCH_STAMP := $(VENV)/.bench-installed-stamp
SAM_VENV := .tools/sam
SAM := $(SAM_VENV)/bin/sam
SAM_VERSION := 1.170.0
CHECKOV_VENV := .tools/checkov
CHECKOV := $(CHECKOV_VENV)/bin/checkov
CHECKOV_VERSION := 3.3.30
SAM_TRANSLATED := .aws-sam/security/template.yaml
export SAM_CLI_TELEMETRY := 0

.DEFAULT_GOAL := help
.PHONY: help install dev test lint typecheck unit validate build sam-check security bench openapi learned-words clean

help:
	@echo "make dev        run the API locally on its embedded AWS stack (http://127.0.0.1:3000)"
	@echo "make test       lint, type-check and run the whole test suite offline"
	@echo "make sam-check  sam validate --lint and sam build (needs Python 3.12 for the build)"
	@echo "make security   checkov on template.yaml and its SAM transform (skips and reasons: .checkov.yaml)"
	@echo "make bench      run the benchmarks under bench/ and write docs/benchmarks.md"
	@echo "make openapi    regenerate the GPT Action schema (SERVER_URL=... or the deployed stack's ApiUrl)"
	@echo "make learned-words  recount the labeled turns behind the learned choices"

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || \
		{ echo "Pandora needs Python 3.11 or newer as '$(PYTHON)' (set PYTHON=/path/to/python3.11)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip==25.3
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,bench]'
	@touch $(BENCH_STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(BENCH_STAMP)
	$(BIN)/mypy layers/pandora/pandora_memory devstack/pandora_devstack functions tests bench

unit: $(BENCH_STAMP)
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

# --- Security scan: checkov in its own virtualenv, on the template and on its SAM transform -------
# checkov reads SAM resources but not the IAM roles, stage and permissions SAM generates from them.
$(CHECKOV):
	$(PYTHON) -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/python -m pip install --quiet checkov==$(CHECKOV_VERSION)

security: $(CHECKOV) $(SAM)
	@mkdir -p $(dir $(SAM_TRANSLATED))
	$(SAM_VENV)/bin/python security/sam_translate.py template.yaml > $(SAM_TRANSLATED)
	$(CHECKOV) --config-file .checkov.yaml -f template.yaml -f $(SAM_TRANSLATED)

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

# The learned word counts (policy/learned_words.py) from the labeled turns; rules.toml names their hashes.
POLICY_DIR := layers/pandora/pandora_memory/policy
LABELED_TURNS := tests/data/labeled_turns.jsonl
learned-words: install
	@for table in types:type_words:learned_type_counts sensitivity:sensitivity_words:learned_sensitivity_counts \
			retrieve:retrieve_words:learned_counts candidate:candidate_words:learned_candidate_counts; do \
		IFS=: read -r name file key <<< "$$table"; \
		$(BIN)/python -m pandora_memory.policy.learned_words $$name $(LABELED_TURNS) > $(POLICY_DIR)/$$file.json || exit 1; \
		digest=$$(sha256sum $(POLICY_DIR)/$$file.json | cut -c1-16); \
		sed -i "s/^$$key = \".*\"/$$key = \"$$digest\"/" $(POLICY_DIR)/rules.toml; \
		echo "$(POLICY_DIR)/$$file.json recounted ($$digest)"; \
	done; echo "bump the rules version in $(POLICY_DIR)/rules.toml"

# The GPT Action schema: the committed openapi/gpt-action.json (placeholder server, checked by the tests)
# and build/gpt-action.json to paste into the GPT editor, served at SERVER_URL; without SERVER_URL, the
# deployed stack's ApiUrl output is asked of the aws CLI when it is installed.
STACK_NAME ?= pandora-memory-dev
OPENAPI_EXPORT := $(BIN)/python -m pandora_memory.turn.openapi_export
openapi: install
	$(OPENAPI_EXPORT) --out openapi/gpt-action.json
	@url="$(SERVER_URL)"; \
	if [ -z "$$url" ] && aws --version >/dev/null 2>&1; then \
		url=$$(aws cloudformation describe-stacks --stack-name "$(STACK_NAME)" \
			--query "Stacks[0].Outputs[?OutputKey=='ApiUrl'].OutputValue" --output text 2>/dev/null); \
	fi; \
	if [ -z "$$url" ] || [ "$$url" = "None" ]; then \
		echo "no server URL: set SERVER_URL=https://<api-id>.execute-api.<region>.amazonaws.com/<stage>" \
			"(or install the aws CLI and deploy the stack $(STACK_NAME))"; \
		exit 1; \
	fi; \
	$(OPENAPI_EXPORT) --server-url "$$url" --out build/gpt-action.json && \
	echo "build/gpt-action.json: paste it into the GPT's Action editor (server $$url)"

clean:
	rm -rf $(VENV) .tools .aws-sam .pytest_cache .mypy_cache .ruff_cache
