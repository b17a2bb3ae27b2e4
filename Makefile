# Everything runs inside .venv, created on first use from pyproject.toml.
VENV ?= .venv
BIN := $(VENV)/bin
N ?= 1e6
MLEM_N ?= 2e5
SIMPLECARD_N ?= 2e5
COSMIC_N ?= 1e5
SEED ?= 7
JOBS ?= 2
comma := ,
CHECK_N ?= 20000
TRAIN_BUDGET ?= 200000
TRAIN_GAMES ?= stop,spacebase,pig,mlem,simplecard,cosmic

.PHONY: install test sim reports check tuned bench mutants lint clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@echo "install 1/4: a virtual environment in $(VENV)"
	python3 -m venv $(VENV)
	@echo "install 2/4: an up-to-date pip"
	$(BIN)/pip install --quiet --upgrade pip
	@echo "install 3/4: analyzer and its dependencies from PyPI (numpy, numba, polars, pyarrow, matplotlib, dask, ...; about a minute)"
	$(BIN)/pip install --quiet -e '.[dev]'
	@echo "install 4/4: the compiled kernels a release published for this machine (analyzer/kernels.lock, checked by SHA-256)"
	$(BIN)/python -m analyzer.cache_fetch
	touch $@
	@echo "installed: $(BIN)/analyzer (run . $(BIN)/activate to call it as analyzer)"

test: install  ## the whole test suite on 2 processes
	$(BIN)/pytest -n 2 --dist loadfile

sim: install  ## the main job: a million STOP matches on defaults, then its balance report
	$(BIN)/analyzer sim stop --n $(N) --seed $(SEED) --jobs $(JOBS) --out results/stop.parquet --force
	$(BIN)/analyzer report stop results/stop.parquet --out reports/stop

reports: install  ## regenerate every game's balance report under reports/, and reports/index.html over them
	$(BIN)/analyzer sim stop --n $(N) --seed $(SEED) --jobs $(JOBS) --out results/stop.parquet --force -q
	$(BIN)/analyzer sim spacebase --n $(N) --seed $(SEED) --jobs $(JOBS) --out results/spacebase.parquet --force -q
	$(BIN)/analyzer sim pig --n $(N) --seed $(SEED) --jobs $(JOBS) --out results/pig.parquet --force -q
	$(BIN)/analyzer sim mlem --n $(MLEM_N) --seed $(SEED) --jobs $(JOBS) --out results/mlem.parquet --force -q
	$(BIN)/analyzer sim simplecard --n $(SIMPLECARD_N) --seed $(SEED) --jobs $(JOBS) --out results/simplecard.parquet --force -q
	$(BIN)/analyzer sim cosmic --n $(COSMIC_N) --seed $(SEED) --jobs $(JOBS) --out results/cosmic.parquet --force -q
	$(BIN)/analyzer report --all results --out reports

check: install  ## apply every scenario's balance: bounds (CHECK_N games each); exit 1 broken, 3 undecided
	$(BIN)/analyzer ci check scenarios --n $(CHECK_N) --seed $(SEED) --jobs $(JOBS) --out reports/check

tuned: install  ## tune each game's policy weights by self-play into scenarios/GAME/tuned.yaml (TRAIN_BUDGET games each; TRAIN_GAMES=pig for one)
	for g in $(subst $(comma), ,$(TRAIN_GAMES)); do \
		$(BIN)/analyzer train $$g --budget $(TRAIN_BUDGET) --seed $(SEED) --jobs $(JOBS) --force -q || exit 1; done

bench: install  ## speed per game into bench/out/bench.json and docs/speed-table.md; GAMES=stop,pig measures only those, QUICK=1 small runs, BASE=<commit> also times that commit's kernels
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/analyzer bench $(subst $(comma), ,$(GAMES)) $(if $(QUICK),--quick) $(if $(BASE),--base $(BASE))

mutants: install  ## break each rule of mutants/<game>.yaml in a scratch copy; lists the edits no test catches
	$(BIN)/python scripts/mutants.py spacebase mlem --jobs $(JOBS)
	$(BIN)/python scripts/mutants.py stop pig simplecard cosmic --no-jit --jobs $(JOBS)

lint: install
	$(BIN)/ruff check analyzer tests bench scripts

clean:  ## also drops numba's compile cache (never needed for correctness: see analyzer/kernel.py)
	rm -rf results .pytest_cache
	find analyzer -name '*.nbi' -o -name '*.nbc' | xargs rm -f
