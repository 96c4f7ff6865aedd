# detectord: the two set-up commands are `make run` and `make test` (see README.md).
# Every target starts with `bootstrap`, which installs only what is missing and is silent otherwise.

SHELL := /bin/bash
SWIFT ?= swift
# chromium: the bench report's test renders the page in a real (headless) browser; chromium-driver
# and selenium drive the device's own page in it. faketime: the daemon's tests step its wall clock.
APT_PACKAGES := libgps-dev libi2c-dev libbluetooth-dev gpsd gpsd-clients libsqlite3-dev libcrypt-dev libssl-dev libsystemd-dev libboost-dev g++ libcurl4 xz-utils python3-venv pkg-config chromium chromium-driver openssl faketime
SHARED ?= $(abspath ../shared)
CACHE := .cache
BENCH_VENV := Bench/.venv
BENCH_PIP := numpy pandas scipy
# The reference implementations the tests compare against (x-io's imufusion, scipy, numpy).
ORACLE_VENV := Bench/.venv-oracle
ORACLE_PIP := imufusion==1.3.3 numpy scipy 'setuptools>=77' selenium
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path)/detectord

.PHONY: all bootstrap build run replay-demo test bench fuzz soak demo train evaluate install clean help

all: build

help:
	@echo "make run     build, then run the live daemon on the demo configuration (a replayed bike crash, about 80 s)"
	@echo "make replay-demo  replay every synthetic demo recording through the detectors at 8x"
	@echo "make test    install what is missing, build, run every test"
	@echo "make bench   benchmarks against peers (numpy, pandas, boost, Fusion C, imufusion); writes Bench/results/latest.json"
	@echo "make fuzz    libFuzzer (with AddressSanitizer) on every parser, FUZZ_SECONDS each (default 60) or FUZZ_RUNS executions; see Fuzz/README.md"
	@echo "make soak    the daemon for a day of replayed data at 100x (about 15 min): RSS, fds, database and drops must stay flat"
	@echo "make demo    regenerate Datasets/demo/ (synthetic recordings)"
	@echo "make train   retrain the learned fall detector on the SisFall development subjects (../shared)"
	@echo "make evaluate  the README's accuracy figures: online protocol, 10 folds by subject, with bench.svg and the stress tests"
	@echo "make install the daemon, its model, the systemd unit and sysusers file, an example configuration (PREFIX, DESTDIR)"
	@echo "make clean   remove build output and caches"

bootstrap:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "bootstrap: installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "bootstrap: Swift 6 toolchain not found on PATH (see README)"; exit 1; }

build: bootstrap
	$(SWIFT) build -c release --product detectord

# The daemon on config/demo.toml: the synthetic bike crash measured by a simulated MPU-6050 and read
# through the real driver path, its GPS track as the
# receiver, alerts on the console, countdown and tracking shortened. It ends by itself. The demo's
# database starts empty each time, so an earlier run's ended emergency does not hold the new one.
run: build
	@mkdir -p $(CACHE)/demo
	@rm -f $(CACHE)/demo/detectord.sqlite $(CACHE)/demo/detectord.sqlite-wal $(CACHE)/demo/detectord.sqlite-shm
	$(RELEASE_BIN) run --config config/demo.toml --exit-when-idle --status-every 10

replay-demo: build
	$(RELEASE_BIN) replay Datasets/demo --speed 8 --profile cycling

test: bootstrap $(ORACLE_VENV)/.ready
	@mkdir -p $(CACHE)
	$(SWIFT) build --build-tests
	@# One test at a time: with two cores, tests that block a thread (real processes, gpsd, the
	@# dataset) would otherwise starve the others and stretch their timeouts.
	$(SWIFT) test --skip-build --no-parallel
	@# The ring's tests again under ThreadSanitizer (it exits non-zero on a data race).
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	SAMPLE_RING_TEST_ITEMS=10000000 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter SampleRingTests

$(ORACLE_VENV)/.ready: Makefile
	python3 -m venv $(ORACLE_VENV)
	$(ORACLE_VENV)/bin/pip install -q $(ORACLE_PIP)
	touch $@

$(BENCH_VENV)/.ready: Makefile
	python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install -q $(BENCH_PIP)
	touch $@

bench: bootstrap $(BENCH_VENV)/.ready $(ORACLE_VENV)/.ready
	SHARED=$(SHARED) PYTHON=$(abspath $(BENCH_VENV))/bin/python Bench/run.sh

# Every parser under libFuzzer with AddressSanitizer: a build of its own (our `main` calls
# libFuzzer's driver), then each target for FUZZ_SECONDS (or until FUZZ_RUNS executions, -1: no
# limit) from the seeds in Fuzz/corpus. Findings land in Fuzz/findings/TARGET; runs and executions
# per second in Bench/results/fuzz.json.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_TARGETS ?= sisfall recording csv drill configuration dataset-description model modem att advertising api-body
FUZZ_SCRATCH := .build-fuzz
fuzz: bootstrap
	$(SWIFT) build -c release --product detectord --scratch-path $(FUZZ_SCRATCH) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DDETECTORD_FUZZ -Xcc -fsanitize=fuzzer-no-link,address
	FUZZ_BIN=$$($(SWIFT) build -c release --scratch-path $(FUZZ_SCRATCH) --show-bin-path)/detectord \
	  FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) Fuzz/run.sh $(FUZZ_TARGETS)

# A day of replayed data through `detectord run` at 100x, a driver answering each countdown;
# SOAK_HOURS of data (24: 14.4 min). Writes Bench/results/soak.json.
SOAK_HOURS ?= 24
soak: build
	python3 Bench/soak/soak.py $(RELEASE_BIN) --hours $(SOAK_HOURS) --out Bench/results/soak.json

demo: bootstrap
	$(SWIFT) build -c release --product detectord
	$(RELEASE_BIN) synth Datasets/demo

# The SisFall development split, unpacked once from ../shared (never committed).
SISFALL := $(CACHE)/datasets/sisfall
# The stamp sits beside the split, not in it: the tests check that the folder holds exactly the
# manifest's files.
SISFALL_STAMP := $(CACHE)/datasets/.sisfall-unpacked
$(SISFALL_STAMP): $(SHARED)/datasets/sisfall-dev.tar.xz
	mkdir -p $(CACHE)/datasets
	tar -xJf $< -C $(CACHE)/datasets
	touch $@

# HAPT's development users: continuous daily life from a waist phone, no falls (never committed).
HAPT := $(CACHE)/datasets/hapt
HAPT_STAMP := $(CACHE)/datasets/.hapt-unpacked
$(HAPT_STAMP): $(SHARED)/datasets/hapt-dev.tar.xz
	mkdir -p $(CACHE)/datasets
	tar -xJf $< -C $(CACHE)/datasets
	touch $@

train: build $(SISFALL_STAMP) $(HAPT_STAMP)
	$(RELEASE_BIN) train --root $(SISFALL) --negatives $(HAPT) --cache $(CACHE)/detectord
	$(SWIFT) build -c release --product detectord

evaluate: build $(SISFALL_STAMP) $(HAPT_STAMP)
	@# Another lab, device and people, no falls: false alarms per hour and detections at removals.
	$(RELEASE_BIN) bench --dataset hapt --root $(HAPT) --json $(CACHE)/bench-hapt.json
	$(RELEASE_BIN) bench --dataset sisfall --root $(SISFALL) --cache $(CACHE)/detectord --protocol online --train --folds 10 \
	  --negatives $(HAPT) --json $(CACHE)/bench-online.json --plot bench.svg --report $(CACHE)/bench-report
	$(RELEASE_BIN) bench --dataset sisfall --root $(SISFALL) --cache $(CACHE)/detectord --protocol online --train --folds 10 \
	  --negatives $(HAPT) --shipped-stages --detector learned+stillness+recovery
	@# The stress tests the README quotes: softer falls, and slower ones that no model trains on.
	for stress in "--soften 0.5" "--soften 0.35" "--slow 1.5"; do \
	  $(RELEASE_BIN) bench --dataset sisfall --root $(SISFALL) --cache $(CACHE)/detectord --protocol online --train --folds 10 \
	    --negatives $(HAPT) $$stress || exit 1; \
	done
	$(RELEASE_BIN) bench --dataset sisfall --root $(SISFALL) --cache $(CACHE)/detectord --protocol trial --folds 10 \
	  --json $(CACHE)/bench-trial.json --plot bench-trial.svg

# A device's installation: the binary, the shipped model where FallModelFile.shipped() looks, the
# systemd unit and sysusers file, and the example configuration unless one is there already.
PREFIX ?= /usr/local
DESTDIR ?=
install: build
	install -D -m 0755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/detectord
	install -D -m 0644 Sources/FallDetect/Resources/fall-model.txt $(DESTDIR)$(PREFIX)/share/detectord/fall-model.txt
	install -D -m 0644 -t $(DESTDIR)$(PREFIX)/share/detectord/web Sources/detectord/Web/*
	install -D -m 0644 docs/daemon.md $(DESTDIR)$(PREFIX)/share/doc/detectord/daemon.md
	install -D -m 0644 config/systemd/detectord.sysusers $(DESTDIR)/etc/sysusers.d/detectord.conf
	@# .cache does not exist on a fresh checkout; the edited unit is written there first.
	mkdir -p $(CACHE)
	sed 's#/usr/local/bin/detectord#$(PREFIX)/bin/detectord#' config/systemd/detectord.service > $(CACHE)/detectord.service
	install -D -m 0644 $(CACHE)/detectord.service $(DESTDIR)/etc/systemd/system/detectord.service
	test -e $(DESTDIR)/etc/detectord/detectord.toml || install -D -m 0640 config/detectord.example.toml $(DESTDIR)/etc/detectord/detectord.toml

clean:
	rm -rf .build .build-* Bench/.build $(CACHE) $(BENCH_VENV) $(ORACLE_VENV)
