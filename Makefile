PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench riichi-check install install-test clean

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

riichi-check: install-test
	RIICHI_EXAMPLES=20000 $(BIN)/python -m pytest -p no:cacheprovider -q tests/test_riichi_vs_mahjong.py

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench.py

clean:
	rm -rf $(VENV) *.egg-info
