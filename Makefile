# Two commands matter: `make demo` (the main job) and `make test` (the tests).
# Both create .venv when it is missing and install what they need into it.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
CM := $(VENV)/bin/countermem
# llama-cpp-python builds from source (about 9 minutes on 2 cores, once; pip caches the wheel).
# Not -DGGML_NATIVE=ON: on a CPU that reports AMX, a native build runs AMX tile instructions that a
# virtual machine may not enable (general protection fault in libggml-cpu, seen here 2026-12-04);
# AVX2 runs on every machine this project has met.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON -DLLAMA_CURL=OFF
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml requirements-torch.txt 2>/dev/null | sha256sum | cut -c1-12)
DEMO_OUT ?= runs/demo-$(shell date +%Y%m%d-%H%M%S)
DEMO_LIMIT ?= 20

.PHONY: demo test install lint docs clean-venv

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip wheel setuptools

$(STAMP): $(PY) pyproject.toml requirements-torch.txt
	$(PY) -m pip install --quiet -r requirements-torch.txt
	$(PY) -m pip install --quiet -e '.[local,memory,onnx,domains,report,view,ray,postgres,dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(CM) models pull qwen2.5-coder-0.5b
	$(CM) run --benchmark spider --backbone local --model qwen2.5-coder-0.5b --limit $(DEMO_LIMIT) --out $(DEMO_OUT)

test: $(STAMP)
	$(CM) models pull minilm-l6-onnx-int8  # 23 MB, once: the onnx embedder's tests compare it with torch MiniLM
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy

docs: $(STAMP)  # docs/configuration.md from the config models (a test fails when it is stale)
	$(CM) config-reference --out docs/configuration.md

clean-venv:
	rm -rf $(VENV)
