PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/pip install --quiet -e .

install-test: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"

demo: install
	$(BIN)/python examples/run_examples.py

test: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest --cov --cov-report=term

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench.py

# not in `make test`: a real server under hostile and busy clients for a few minutes (docs/soak.md)
.PHONY: soak
soak: install-test
	$(BIN)/python bench/soak.py

clean:
	rm -rf $(VENV) *.egg-info
