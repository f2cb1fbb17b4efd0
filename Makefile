# crdesk — two commands do everything on a fresh machine:
#   make run    create .venv, install crdesk, open the GUI on the demo table
#   make test   create .venv, install crdesk with its test tools, run every check
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check lint bench clean dist install-desktop

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/crdesk $(FILE)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 2 -q

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do QT_QPA_PLATFORM=offscreen $(BIN)/python $$b || exit 1; done

# A one-folder app that runs without Python (packaging/crdesk.spec), its .tar.gz,
# and a headless smoke test of the result.  PyInstaller is the `dist` extra.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
DIST_STAMP := $(VENV)/.installed-dist
$(DIST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dist]'
	touch $(DIST_STAMP)

dist: $(DIST_STAMP)
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/crdesk.spec
	tar -C dist -czf dist/crdesk-$(VERSION)-linux-$(shell uname -m).tar.gz crdesk
	$(BIN)/python packaging/smoke.py dist/crdesk

# the menu entry, file types, icons and thumbnailer, for this user
install-desktop: $(STAMP)
	$(BIN)/crdesk install-desktop

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
