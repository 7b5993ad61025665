# Two commands matter: `make demo` (the main job) and `make test` (the tests).
# Both create .venv when it is missing and install what they need into it.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CM := $(VENV)/bin/countermem
# llama-cpp-python builds from source (about 9 minutes on 2 cores, once; pip caches the wheel).
export CMAKE_ARGS ?= -DGGML_NATIVE=ON -DLLAMA_CURL=OFF
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml requirements-torch.txt 2>/dev/null | sha256sum | cut -c1-12)
DEMO_OUT ?= runs/demo-$(shell date +%Y%m%d-%H%M%S)
DEMO_LIMIT ?= 20

.PHONY: demo test install lint docs clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip wheel setuptools

$(STAMP): $(PY) pyproject.toml requirements-torch.txt
	$(PY) -m pip install --quiet -r requirements-torch.txt
	$(PY) -m pip install --quiet -e '.[local,memory,domains,report,ray,dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(CM) models pull qwen2.5-coder-0.5b
	$(CM) run --benchmark spider --backbone local --model qwen2.5-coder-0.5b --limit $(DEMO_LIMIT) --out $(DEMO_OUT)

test: $(STAMP)
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

docs: $(STAMP)  # docs/configuration.md from the config models (a test fails when it is stale)
	$(CM) config-reference --out docs/configuration.md

clean-venv:
	rm -rf $(VENV)
