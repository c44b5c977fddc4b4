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

test: install-test browser
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest --cov --cov-report=term

bench: $(BIN)/python
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python bench/bench.py

clean:
	rm -rf $(VENV) *.egg-info test-artifacts

# The browser tests drive Debian's headless Chromium (never a browser Playwright downloads), with a
# CJK font so screenshots show the Chinese. Installed when missing and the machine allows (root, apt-get).
.PHONY: browser
FONT_PACKAGE := fonts-wqy-microhei
browser:
	@if { command -v chromium-headless-shell || command -v chromium; } >/dev/null && fc-list :lang=zh 2>/dev/null | grep -q .; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; \
		apt-get install -y -qq --no-install-recommends chromium-headless-shell $(FONT_PACKAGE) >/dev/null \
		|| apt-get install -y -qq --no-install-recommends chromium $(FONT_PACKAGE) >/dev/null \
		|| echo "could not install Chromium: the browser tests will fail"; \
	else \
		echo "no Chromium: the browser tests will fail. Install it as root:" \
		"apt-get install -y --no-install-recommends chromium-headless-shell $(FONT_PACKAGE)"; \
	fi
