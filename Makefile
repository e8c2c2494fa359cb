# resonance — build, test and run the pipeline. `make help` lists the targets.
#
# Every target that builds first installs the Debian packages it needs when they are missing
# (scripts/require-packages.sh, through sudo when not root), so a fresh Debian 12 machine with
# only the Swift toolchain needs nothing else.

SWIFT ?= swift
# C libraries the package links (system-library targets) and the tools the build uses.
BUILD_PACKAGES := pkg-config libsqlite3-dev libssl-dev libarchive-dev libxml2-dev libfftw3-dev
# OpenBLAS: CBLAS and the LAPACK routines ResonanceLinear declares (CBLAS target).
BUILD_PACKAGES += libopenblas-dev
# GSL: the Sobol sequence of the sweep designs (CGSL target, for ResonanceLinear).
BUILD_PACKAGES += libgsl-dev
# cmark-gfm: the report's HTML pages (CCmark target, for ResonanceIO).
BUILD_PACKAGES += libcmark-gfm-dev libcmark-gfm-extensions-dev
# zstd: the pages of the Parquet files `resonance export` writes (CZstd target, for ResonanceIO).
BUILD_PACKAGES += libzstd-dev
# What `make render-check` shows the report with: GitHub's Markdown renderer and a browser.
RENDER_PACKAGES := cmark-gfm chromium fonts-dejavu-core python3
# What the tests check generated files with: standard parsers, not ours.
TEST_PACKAGES := libxml2-utils python3 time
# What `make conformance` reads the hand-off's Parquet files with (pyarrow and DuckDB), and
# what cohort-check runs Snakemake with, from PyPI into virtual environments.
CONFORMANCE_PACKAGES := python3 python3-venv
# The public fixtures CI has beside the project; a user's clone does not.
FIXTURES ?= $(abspath ../shared/fixtures)
RELEASE_BIN := .build/release/resonance

.PHONY: help deps test-deps build test conformance cohort-check bench-cohort fuzz fuzz-ci fuzz-build demo notebooks-check render-check readme-check report-golden report-golden-check sample sample-check validate-tuning validate-experiments validate-cohort lint bench bench-ingest bench-traces bench-synth bench-listening bench-analyze bench-sweep bench-demo bench-decade clean

help:
	@echo "make demo         build in release mode, run the whole pipeline on Datasets/sample into Reports/, re-run notebooks-md/"
	@echo "make notebooks-check  exit 1, showing the difference, when a notebook's outputs are stale (after make demo)"
	@echo "make report-golden    copy the demo's report pages into Tests/Golden/report (review, then commit)"
	@echo "make report-golden-check  the demo's report pages against Tests/Golden/report (after make demo)"
	@echo "make render-check     every report page through cmark-gfm and headless Chromium, light and dark (after make demo)"
	@echo "make readme-check     run the README's command block as shown and find every figure it quotes in their output"
	@echo "make test         build and run the unit tests (no network, no ../shared needed)"
	@echo "make conformance  tests over the real public files in ../shared/fixtures, then exported Parquet read back by pyarrow and DuckDB"
	@echo "make lint         swift format lint --strict over Sources and Tests, then the architecture rules (scripts/lint-architecture.py, docs/architecture.md)"
	@echo "make fuzz         each reader's libFuzzer harness for FUZZ_SECONDS (default $(FUZZ_SECONDS)) each; make fuzz-ci: $(FUZZ_CI_SECONDS) s each"
	@echo "make build        release build only: $(RELEASE_BIN)"
	@echo "make sample       regenerate Datasets/sample with resonance synth"
	@echo "make sample-check check that Datasets/sample is exactly what resonance synth writes"
	@echo "make bench        every benchmark (bench-synth, bench-ingest, bench-traces, bench-listening, bench-analyze, bench-sweep, bench-demo, bench-cohort, bench-decade), then one table of them all (each figure beside its same-run reference or goal, the ratio, peak RSS, the machine and the build), printed and written into docs/performance.md"
	@echo "make bench-ingest     the Health import on synth's export and two foreign mixes, beside xmllint --stream, the bare libxml2 SAX parse (bench/sax_floor.c) and healthkit-to-sqlite"
	@echo "make bench-traces     a synth year's recordings (plain and gzipped) beside python json.loads, and the whole year beside its Health export alone"
	@echo "make bench-cohort     10,000 generated hand-offs read by DuckDB through their partitions and pooled by resonance cohort pool"
	@echo "make bench-listening  1M Play Activity rows and 1M Spotify entries ingested, beside csv/json/sqlite3 references"
	@echo "make bench-analyze    resonance analyze over a 12-month history, beside a numpy reference checked against it"
	@echo "make bench-demo       make demo's wall time after the build (resonance demo and the notebooks) against the 60 s goal"
	@echo "make bench-sweep      resonance sweep's kernel on 10^4 weight vectors beside a numpy reference checked against it; tune on 12 months"
	@echo "make bench-decade     one person's 10 years of 3,000 songs beside their first year: every step's time and peak RSS (YEARS=, STEPS=; about 30 GB of disk)"
	@echo "make validate-experiments  experiment plan, the DJ carrying it out and analyze on simulated people: false adopts on null and flat people analysed daily, adopts where the best point gains +0.02, evening music's planted +15 min covered (scripts/validate-experiments.py)"
	@echo "make validate-tuning  tune on simulated people of every kind, judged against the truth synth plants: coverage, false changes over a year of reruns, power, the closed loop, the estimators' bias (scripts/validate-tuning.py); then people from an independent generator (scripts/validate-tuning-independent.py)"
	@echo "make cohort-check  $(COHORT_PERSONS) simulated persons through the pipeline as a Slurm job array on a one-node cluster started here (slurm-wlm, munge), then pooled"
	@echo "make validate-cohort  a 100-person cohort from synth --cohort (seed fixed in advance) through the whole pipeline and pooled: each pooled mu against its interval and the planted mu, tau against the planted tau (scripts/validate-cohort.sh)"
	@echo "make clean        remove .build and the demo's outputs"

deps:
	@scripts/require-packages.sh $(BUILD_PACKAGES)

test-deps:
	@scripts/require-packages.sh $(BUILD_PACKAGES) $(TEST_PACKAGES)

build: deps
	$(SWIFT) build -c release

# Warnings are errors here: the tree builds clean in Swift 6 language mode.
test: test-deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test -Xswiftc -warnings-as-errors

# The readers over the shared public fixtures, then the hand-off's Parquet files read back by
# pyarrow and DuckDB (from PyPI into .build/conformance-venv; scripts/parquet-conformance.sh).
conformance: deps
	@scripts/require-packages.sh $(CONFORMANCE_PACKAGES)
	@test -d "$(FIXTURES)" || { echo "error: $(FIXTURES) not found: conformance needs the shared fixtures (CI has them)" >&2; exit 1; }
	RESONANCE_FIXTURES="$(FIXTURES)" $(SWIFT) test -Xswiftc -warnings-as-errors --filter ConformanceTests
	scripts/parquet-conformance.sh

# Fuzzing (docs/reliability.md): a libFuzzer harness per reader (Fuzz/<Name>/), built with the
# toolchain's `-sanitize=fuzzer,address` (one option: SwiftPM's `--sanitize fuzzer --sanitize
# address` compiles with the last only, so without coverage) and lld, in a scratch path of
# their own; RESONANCE_FUZZ=1 adds the harnesses to the package. Each runs for FUZZ_SECONDS on
# its corpus in .build/fuzz/corpus/<Name>, seeded from Tests/Fixtures and Datasets/sample;
# findings go to .build/fuzz/findings/<Name>/, and any finding fails the target, naming the
# input that reproduces it. One harness at a time: they share the machine with everything else.
FUZZ_HARNESSES := $(sort $(patsubst Fuzz/%/,%,$(dir $(wildcard Fuzz/*/*Fuzz.swift))))
FUZZ_SECONDS ?= 60
# CI's round: about a minute and a quarter of fuzzing over the eighteen harnesses.
FUZZ_CI_SECONDS ?= 4
# Debug configuration (the run-time exclusivity checks on, which release turns off for the
# readers), optimised with -O: unoptimised generic code made the archive harnesses ~100× slower.
FUZZ_BUILD := RESONANCE_FUZZ=1 $(SWIFT) build --scratch-path .build/fuzz/build -c debug \
  -Xswiftc -O -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

fuzz-build: deps
	@scripts/require-packages.sh python3
	@for harness in $(FUZZ_HARNESSES); do $(FUZZ_BUILD) --product Fuzz$$harness || exit 1; done

fuzz: fuzz-build
	python3 Fuzz/seed-corpus.py .build/fuzz/corpus
	Fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_CI_SECONDS)

# The whole pipeline on the committed sample into Reports/, then the notebooks re-run against
# the demo's store (their outputs rewritten in place; unchanged when they were current).
demo: build
	$(RELEASE_BIN) demo
	$(RELEASE_BIN) notebook run $(NOTEBOOKS) --db Reports/demo.sqlite

# After `make demo`: each page of Reports/ through cmark-gfm and headless Chromium, in a light
# and a dark colour scheme; fails on a broken link or image, an SVG without its marks, or a
# table row whose cells do not match its header. Screenshots in Reports/screenshots/.
# The README's command block run as shown, and every figure its paragraph quotes found in what
# the commands printed (scripts/readme_check.py).
readme-check: build
	python3 scripts/readme_check.py README.md

render-check:
	@scripts/require-packages.sh $(RENDER_PACKAGES)
	@test -s Reports/index.md || { echo "error: Reports/index.md not found: run make demo first" >&2; exit 1; }
	python3 scripts/render_check.py Reports Reports/screenshots

# The report's pages for the committed sample, as reviewed: `make report-golden` copies what
# `make demo` wrote into Tests/Golden/report (review the diff before committing it);
# `make report-golden-check` (CI, after `make demo`) fails, showing the difference, when a page
# no longer matches. The CSVs are checked numerically by the tests instead: BLAS may differ in
# the last bits between machines, and the pages round.
REPORT_PAGES = $(filter-out Reports/README.md,$(wildcard Reports/*.md))
report-golden: demo
	rm -rf Tests/Golden/report && mkdir -p Tests/Golden/report
	cp $(REPORT_PAGES) Tests/Golden/report/

report-golden-check:
	@test -s Reports/index.md || { echo "error: Reports/index.md not found: run make demo first" >&2; exit 1; }
	@for page in Tests/Golden/report/*.md; do \
	  diff -u "$$page" "Reports/$$(basename "$$page")" || { echo "error: Reports/$$(basename "$$page") differs from its golden page (make report-golden, then review)" >&2; exit 1; }; \
	done
	@test "$$(ls Tests/Golden/report/*.md | wc -l)" -eq "$$(ls $(REPORT_PAGES) | wc -l)" || { echo "error: Reports/ and Tests/Golden/report hold different pages" >&2; exit 1; }
	@echo "the report's pages are their golden pages ($$(ls Tests/Golden/report/*.md | wc -l) pages)"

# CI: after `make demo`, the committed notebooks must be what a re-run writes.
notebooks-check: build
	$(RELEASE_BIN) notebook run $(NOTEBOOKS) --db Reports/demo.sqlite --check

NOTEBOOKS := $(sort $(wildcard notebooks-md/*.md))

SAMPLE_PERSON := --scale 0.2 --songs 160 --compress --person app-model
SAMPLE_ARGS := --months 4 $(SAMPLE_PERSON)

# The sample, then the experiment the demo analyses on it (scripts/sample-experiment.sh): the
# decision logs of the two months after it, the DJ carrying out the demo's plan.
sample: build
	rm -rf Datasets/sample Datasets/sample-experiment/resonance
	$(RELEASE_BIN) synth --out Datasets/sample $(SAMPLE_ARGS)
	scripts/sample-experiment.sh $(RELEASE_BIN) Datasets/sample-experiment $(SAMPLE_PERSON)

sample-check: build
	rm -rf .build/sample-check .build/sample-check-experiment
	$(RELEASE_BIN) synth --out .build/sample-check $(SAMPLE_ARGS) --quiet
	diff -r Datasets/sample .build/sample-check && echo "Datasets/sample is what resonance synth writes"
	scripts/sample-experiment.sh $(RELEASE_BIN) .build/sample-check-experiment $(SAMPLE_PERSON)
	diff -r Datasets/sample-experiment/resonance .build/sample-check-experiment/resonance && echo "Datasets/sample-experiment is what the DJ writes carrying out the demo's plan"

# Benchmarks need the test packages (xmllint, python3 for the Python peer's virtual env).
# Each script appends its summary rows to $(BENCH_RESULTS) (bench/record.sh); `make bench`
# empties it, runs every benchmark one after the other, then bench/table.py prints one table of
# them all and writes it into docs/performance.md. A bench-* target alone appends its rows:
# `python3 bench/table.py` then shows each benchmark's latest run.
export BENCH_RESULTS ?= .bench/results.tsv
BENCHES := bench-synth bench-ingest bench-traces bench-listening bench-analyze bench-sweep bench-demo bench-cohort bench-decade
bench:
	@mkdir -p $(dir $(BENCH_RESULTS)) && : > $(BENCH_RESULTS)
	$(MAKE) --no-print-directory -j1 $(BENCHES)
	@echo
	python3 bench/table.py --write docs/performance.md

# The Health import on three ~1 GB exports (synth's, and bench/make_foreign_health.py's typical
# and metadata-heavy mixes, generated once into .bench/foreign-*), each beside xmllint --stream,
# the bare libxml2 SAX parse (bench/sax_floor.c, compiled by the script) and healthkit-to-sqlite. bench/ingest.sh takes BIN= (another build) and SKIP_HK=1 (no
# healthkit-to-sqlite, for quick iterations).
bench-ingest: build test-deps
	@python3 -m venv --help >/dev/null 2>&1 || scripts/require-packages.sh python3-venv
	bench/ingest.sh

bench-synth: build
	bench/synth.sh

# The apps' recordings (JSON Lines, plain and gzipped) of a synth year, beside python's
# json.loads line by line over the same files, and the whole year beside its Health export
# alone (bench/traces.sh). Generates the year once into .bench/traces-year.
bench-traces: build
	@scripts/require-packages.sh time
	bench/traces.sh

# The cohort at scale: 10,000 hand-off partitions written directly (pyarrow), read by DuckDB
# through the Hive partitions and pooled by resonance cohort pool (bench/cohort.sh).
bench-cohort: build test-deps
	@scripts/require-packages.sh $(CONFORMANCE_PACKAGES)
	bench/cohort.sh

# The listening goal: 1M rows of either history in under 10 s. Generates its files once into
# .bench/listening (python3), and needs the sqlite3 CLI and /usr/bin/time for its references.
bench-listening: build test-deps
	@scripts/require-packages.sh sqlite3 time
	bench/listening.sh

# The analysis goal: a 12-month default-scale history analysed in under 20 s. Generates the set
# once into .bench/analyze (resonance synth), ingests it, and times resonance analyze beside
# bench/analyze_reference.py (numpy, installed from PyPI into .bench/venv).
bench-analyze: build test-deps
	@python3 -m venv --help >/dev/null 2>&1 || scripts/require-packages.sh python3-venv
	@scripts/require-packages.sh time
	bench/analyze.sh

# The sweep goals: the kernel in at most a quarter of NumPy's time for the same blocked
# computation (10^4 weight vectors over a 17-month log), and tune on 12 months under 30 s.
# Generates its sets once into .bench/sweep (resonance synth) and times resonance sweep and tune
# beside bench/sweep_reference.py (numpy, installed from PyPI into .bench/venv; sqlite3 CLI
# for the counts).
bench-demo: build
	@scripts/require-packages.sh time
	bench/demo.sh

# One person's decade beside their first year, 3,000 songs at scale 1 (bench/decade.sh): every
# step's time and peak RSS against the bounded-memory goals. YEARS= (default 10) and STEPS=
# (a subset of synth ingest analyze new-month breathing sweep tune report). The 10-year set is
# about 18 GB of files and a 10 GB store, made once into .bench/decade; tune alone runs about
# an hour there.
bench-decade: build
	@scripts/require-packages.sh time
	bench/decade.sh

bench-sweep: build test-deps
	@python3 -m venv --help >/dev/null 2>&1 || scripts/require-packages.sh python3-venv
	@scripts/require-packages.sh sqlite3 time
	bench/sweep.sh

# Tune on fresh simulated people of every kind, from seeds declared in the script, judged
# against the truth synth plants (docs/validation.md, "Tuning on people it was not built for"):
# PER_KIND coverage people of each kind, NULLS null histories rerun monthly for a year with the
# error ledger, POWER mixed people at taste contrast 3, every change run forward three months.
# Then INDEPENDENT people from a generator written apart from synth's
# (scripts/independent_person.py), judged against the truth it knows.
# A benchmark-like run, not a test (over an hour here, two synth people at a time): it prints
# and writes its summaries into .bench/validate-tuning and .bench/validate-tuning-independent.
PER_KIND ?= 15
NULLS ?= 60
POWER ?= 30
INDEPENDENT ?= 30
EXPERIMENT_NULLS ?= 60
EXPERIMENT_POWER ?= 60
EXPERIMENT_EVENING ?= 120
EXPERIMENT_MAX_DAYS ?= 120
# The cohort fan-out on a real Slurm, on this machine alone (scripts/cohort-check.sh): installs
# slurm-wlm and munge when missing (their services never started by the packages), runs
# slurmctld and slurmd on loopback, pushes COHORT_PERSONS simulated persons through the
# pipeline as a job array, submits it again (every person skipped) and pools; then the same
# for four persons under Snakemake 7 (cohort/Snakefile; from PyPI into .build/cohort-venv).
COHORT_PERSONS ?= 20
cohort-check: build test-deps
	@scripts/require-packages.sh $(CONFORMANCE_PACKAGES)
	COHORT_PERSONS=$(COHORT_PERSONS) scripts/cohort-check.sh

# One simulated cohort through the whole pipeline, pooled and judged against the population
# synth --cohort planted (scripts/validate-cohort.sh; COHORT_PERSONS, COHORT_MONTHS,
# COHORT_SCALE and COHORT_SEED in the environment change it). About 20 minutes here for 100
# persons of 3 months, two at a time; it reports into .bench/validate-cohort/summary.txt.
validate-cohort: build
	@scripts/require-packages.sh python3
	scripts/validate-cohort.sh

# Whether resonance experiment's answers can be trusted, on simulated people
# (scripts/validate-experiments.py; docs/experiments.md, "Validation"). About an hour on two cores.
# EXPERIMENT_MAX_DAYS is the power and evening groups' --max-days; 3500, the longest synth's ten
# years hold after the four months of history, lets the power group's plans run as long as
# their power analysis asks.
validate-experiments: build
	@scripts/require-packages.sh python3
	python3 scripts/validate-experiments.py --bin $(RELEASE_BIN) --nulls $(EXPERIMENT_NULLS) --power $(EXPERIMENT_POWER) --evening $(EXPERIMENT_EVENING) --max-days $(EXPERIMENT_MAX_DAYS)

validate-tuning: build test-deps
	python3 scripts/validate-tuning.py --bin $(RELEASE_BIN) --per-kind $(PER_KIND) --nulls $(NULLS) --power $(POWER)
	python3 scripts/validate-tuning-independent.py --bin $(RELEASE_BIN) --persons $(INDEPENDENT)

# Then the architecture rules (docs/architecture.md), after the lint's own self-test.
lint:
	$(SWIFT) format lint --strict -r Sources Tests Package.swift
	@scripts/require-packages.sh python3
	python3 scripts/test_lint_architecture.py
	python3 scripts/lint-architecture.py

clean:
	rm -rf .build Reports/index.md Reports/demo.sqlite Reports/demo.sqlite-wal Reports/demo.sqlite-shm
