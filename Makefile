PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Which Python made .venv (its path and version): another one (`make PYTHON=python3.12 test`,
# or python3 upgraded) makes .venv anew instead of reusing a stale one.
PYTHON_ID := $(shell $(PYTHON) -c 'import sys; print(sys.executable, sys.version.split()[0])' 2>/dev/null)

.PHONY: demo test check docs messages bench postgres riichi-check install install-test lock clean FORCE

# The exact versions every install here takes (`pip install -c`): pyproject.toml says the ranges taihu
# works with, this file the versions `make test` and CI run; `make lock` makes it anew (below).
LOCK := constraints.txt

$(VENV)/python-id: FORCE
	@test -n "$(PYTHON_ID)" || { echo "no Python '$(PYTHON)': pick one with make PYTHON=python3.12 ..."; exit 1; }
	@test "$$(cat $@ 2>/dev/null)" = "$(PYTHON_ID)" || { \
		echo "making $(VENV) with $(PYTHON_ID)"; rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && \
		$(BIN)/pip install --quiet --upgrade pip && echo "$(PYTHON_ID)" > $@; }

$(BIN)/python: $(VENV)/python-id ;

# Installed again when pyproject.toml or the lock changes (or .venv was made anew).
$(VENV)/installed: $(VENV)/python-id pyproject.toml $(LOCK)
	$(BIN)/pip install --quiet -c $(LOCK) -e .
	@touch $@

$(VENV)/installed-test: $(VENV)/python-id pyproject.toml $(LOCK)
	$(BIN)/pip install --quiet -c $(LOCK) -e ".[test]"
	@touch $@

install: $(VENV)/installed

install-test: $(VENV)/installed-test

demo: install
	$(BIN)/python examples/run_examples.py

# The tests on every core (pytest-xdist), dealt out one by one: --dist loadgroup, loadfile and loadscope queue
# the tests by their ids, and schemathesis gives its 16 tests one id, so they would run one of them.
PYTEST_ON_EVERY_CORE := -n auto

test: install-test browser postgres nginx
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ON_EVERY_CORE) --cov --cov-report=term

# The contributor's loop, in a minute or two: `make test` but for the tests that start a server, a browser,
# PostgreSQL or nginx, or take long (pyproject.toml's markers; docs/architecture.md "Running the tests").
CHECK_TESTS := not slow and not server and not browser and not postgres and not nginx

check: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest $(PYTEST_ON_EVERY_CORE) -m "$(CHECK_TESTS)"

docs: install-test
	$(BIN)/python -m taihu.docs

# the message catalog's .mo files from its .po files (docs/languages.md); tests/test_messages.py finds them stale
messages: install-test
	$(BIN)/pybabel compile --domain taihu --directory taihu/messages/locale --statistics
	for locale in taihu/scorer/rulesets/*/locale; do \
		$(BIN)/pybabel compile --domain ruleset --directory $$locale --statistics || exit 1; done

riichi-check: install-test
	RIICHI_EXAMPLES=20000 $(BIN)/python -m pytest -p no:cacheprovider -q tests/test_riichi_vs_mahjong.py

bench: $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) -e ".[bench]"
	$(BIN)/python bench/bench.py

# the Luoshan row of `make bench` for this tree and an older commit (REF), in turns (docs/performance.md)
REF ?= 1f0c049
.PHONY: bench-against
bench-against: $(BIN)/python
	$(BIN)/pip install --quiet -c $(LOCK) -e ".[bench]"
	$(BIN)/python bench/against.py --ref $(REF)

# every answer of the library, the API and the CLI against an older commit's (REF, given: 527aaa9, the
# last commit before the rule sets were refactored), on the examples, the docs and random hands (bench/compare_answers.py)
.PHONY: compare-answers
compare-answers: install-test
	$(BIN)/python bench/compare_answers.py --ref $(if $(filter command line environment,$(origin REF)),$(REF),527aaa9)

# not in `make test`: a real server under hostile and busy clients for a few minutes (docs/soak.md)
.PHONY: soak
soak: install-test
	$(BIN)/python bench/soak.py

# The lock made anew: taihu with every extra in a throwaway venv, `pip check`ed, then frozen. Installed under
# the lock as it is, so the versions locked are kept and a dependency new to pyproject.toml gets its newest
# release (pip refuses if a range no longer admits a locked version); `make lock UPGRADE=1` installs without
# it: the newest release in every range. Run `make test` before committing the new lock.
lock:
	@set -e; venv=$$(mktemp -d); trap 'rm -rf "$$venv"' EXIT; \
	$(PYTHON) -m venv "$$venv"; "$$venv/bin/pip" install --quiet --upgrade pip; \
	"$$venv/bin/pip" install --quiet $(if $(UPGRADE),,$(if $(wildcard $(LOCK)),-c $(LOCK))) -e ".[test,postgres,bench]"; \
	"$$venv/bin/pip" check; \
	{ echo "# The exact versions that \`make install\`, \`make test\` (and so CI) and \`make bench\` install"; \
	  echo "# (pip install -c $(LOCK)), within the ranges of pyproject.toml. Made by \`make lock\` (the versions"; \
	  echo "# locked before kept; \`make lock UPGRADE=1\`: the newest in every range) from taihu with every extra,"; \
	  echo "# .[test,postgres,bench], on Python $$("$$venv/bin/python" -c 'import sys; print(sys.version.split()[0])'). Not edited by hand."; \
	  "$$venv/bin/pip" freeze --exclude-editable; } > $(LOCK).new; \
	mv $(LOCK).new $(LOCK); echo "$(LOCK): $$(grep -vc '^#' $(LOCK)) packages"

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

# The ledger store's tests run on a real PostgreSQL too (tests/pg_cluster.py: a throwaway cluster in a
# temporary directory). Debian's server is installed when missing and the machine allows (root, apt-get);
# PostgreSQL will not run as root, so root's runs start it as the system user $(PG_USER), made here.
.PHONY: postgres
PG_USER := taihu-pg
postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; \
		apt-get install -y -qq --no-install-recommends postgresql >/dev/null \
		|| echo "could not install PostgreSQL: the store's PostgreSQL tests will fail"; \
	else \
		echo "no PostgreSQL server: its tests are skipped (and fail under CI=true). Install it as root:" \
			"apt-get install -y --no-install-recommends postgresql"; \
	fi
	@if [ "$$(id -u)" = 0 ] && ! id -u $(PG_USER) >/dev/null 2>&1; then \
		useradd --system --no-create-home --shell /usr/sbin/nologin $(PG_USER); fi

# tests/test_deploy.py runs the nginx site (deploy/nginx/taihu.conf) on loopback in front of a real taihu serve
# (TLS with a throwaway certificate). Debian's nginx is installed when missing and the machine allows.
.PHONY: nginx
nginx:
	@if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		export DEBIAN_FRONTEND=noninteractive; apt-get update -qq; \
		apt-get install -y -qq --no-install-recommends nginx >/dev/null \
		|| echo "could not install nginx: the reverse-proxy test is skipped (and fails under CI=true)"; \
	else \
		echo "no nginx: the reverse-proxy test is skipped (and fails under CI=true). Install it as root:" \
			"apt-get install -y --no-install-recommends nginx"; \
	fi
