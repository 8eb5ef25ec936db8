# SPDX-License-Identifier: MIT
# HashSoC: two commands do all the set-up on a fresh Debian 12 machine.
#   make demo   build the SoC in litex_sim, run the demo firmware (software vs accelerator)
#   make test   every test (installs what it needs first)
# More: make bench (benchmark tables and plots in docs/), make simprofile, make seed001,
# make docs (register map and the tables generated from gateware/hashspec.py), make format
# (C style).
VENV   := .venv
PY     := $(CURDIR)/$(VENV)/bin/python
# LiteX's software Makefiles call plain `python3`: the venv's must come first.
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)
# Builds print one line per step and keep the tools' output in build/logs/ (soc/steps.py,
# standard library only: setup runs it before .venv exists). V=1 shows every command and all output.
ifeq ($(V),1)
Q :=
else
Q := @
endif
STEP := python3 soc/steps.py
LOGS := build/logs

.PHONY: setup demo test test-fast bench simprofile seed001 docs spec format sim-build sim qemu run clean \
        twin-build twin twin-run twin-fw fw twin-serial-boot device-key destroy-device-key sign

# A fresh machine may have no python3 yet (set-up installs it): then set-up prints as it goes.
setup:
	$(Q)if command -v python3 >/dev/null; then \
	    $(STEP) "setup (Debian packages, .venv)" $(LOGS)/setup.log -- bash scripts/setup.sh; \
	else bash scripts/setup.sh; fi

DEMO_CMDS := --cmd 'hash hello' --cmd 'hash -a sha3-512 -p hw Mouna_Noura_ATSIP_2020' \
             --cmd 'hash -p sw hello' --cmd 'sha256sum -p hw README hashdata' \
             --cmd 'hashbench -n 3 -S'

# The builds first (one line each), then the demo: the firmware's table, then the xv6 session.
demo: setup xv6-litex
	$(Q)$(PY) -m soc.runfw --app demo
	@echo "== xv6 on the same SoC: the hash system call, sha256sum, hashbench"
	$(Q)$(PY) scripts/xv6run.py --platform litex --quiet $(if $(filter 1,$(V)),,--from-kernel) \
	    --timeout 600 --boot-timeout 600 $(DEMO_CMDS)

# On every core (pytest-xdist): the simulations of one module and target stay together,
# and the longest groups are handed out first (tests/conftest.py, HEAVIEST_FIRST). JOBS=1
# runs them one after another.
JOBS ?= auto
test: setup
	$(PY) -m pytest tests -m "not fpga" $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist loadgroup --no-loadscope-reorder)

# The tests that build no Verilator simulator (cores, frontend, software hashes, xv6 on
# QEMU): those marked simbuild (litex_sim or a board twin, pytest.ini) are left out.
test-fast: setup
	$(PY) -m pytest tests -m "not fpga and not simbuild"

# BENCH_TARGETS=arty-twin (a comma list) runs only those; the others stay as docs/bench.json has them.
# BENCH_ARGS=--with-engines: instead, the twins built with every engine (the engines a board leaves out).
bench: setup
	$(PY) scripts/bench.py $(if $(BENCH_TARGETS),--targets $(BENCH_TARGETS)) $(BENCH_ARGS)

# Simulation speed and a perf profile of the Verilator models (docs/simprofile.md).
simprofile: setup
	@command -v perf >/dev/null || { echo "[simprofile] installing linux-perf"; \
	    $$([ "$$(id -u)" = 0 ] || echo sudo) apt-get install -y -qq linux-perf >/dev/null; }
	$(PY) scripts/simprofile.py

# Seed 001's Table III on this CPU: SHA3-512 in software at -O0/-O1/-O2/-Os vs the engine.
seed001: setup
	$(PY) scripts/seed001.py

# Everything generated from the one description of the engines (gateware/hashspec.py):
# the C header hash_spec.h, docs/registers.md, the marked tables in docs/.
docs spec: setup
	$(PY) scripts/genspec.py

# One C style (.clang-format) for every C file in the tree; tests/test_style.py checks it.
format: setup
	git ls-files '*.c' '*.h' | xargs $(VENV)/bin/clang-format -i

# The SHA-2 engines' HMAC device key, keys/device_key: made once per tree (any gateware
# build or xv6 image makes it too), never committed, kept by `make clean` (gateware/devicekey.py).
# A board holds the key of the bitstream it was flashed with: keep (and back up) the file to
# go on building for it. `make device-key` prints its path and fingerprint.
device-key:
	@python3 -m gateware.devicekey
	@python3 -m gateware.devicekey --fingerprint

# Deletes the device key (and forgets the stamps of what was built with it): boards flashed
# with bitstreams built from it then reject every image built afterwards. CONFIRM=yes only.
destroy-device-key:
	@python3 -m gateware.devicekey --destroy $(if $(filter yes,$(CONFIRM)),--confirm)

# Sign your own program for the ROM (docs/integrity.md, "Verified boot"): IMAGE=my.bin [LOAD=
# address, default main RAM's base] [VERSION=N] writes my.hdr and boot.json beside it, for
# litex_term --images, python -m soc.sim --ram-init and the twins. The key is this tree's.
sign:
	@test -n "$(IMAGE)" || { echo "make sign IMAGE=<program.bin> [LOAD=0x40000000] [VERSION=N]"; exit 2; }
	python3 scripts/signimage.py $(IMAGE) $(if $(LOAD),--load $(LOAD)) $(if $(VERSION),--version $(VERSION)) \
	  --boot-json $(dir $(IMAGE))boot.json

sim-build: setup
	$(Q)$(PY) -m soc.sim --build-only

# xv6: interactive shell in litex_sim (make sim) or QEMU (make qemu), or a scripted
# session: make run CMD='echo hi; ls' [PLATFORM=litex|qemu]
# A target's SoC and what xv6 is built with for it come from boards/targets.py.
PLATFORM ?= litex
CMD ?= ls
TARGETS_PY := $(PY) -m boards.targets

xv6-litex: sim-build
	$(Q)$(STEP) "xv6 for litex (kernel, user programs, fs.img)" $(LOGS)/xv6-litex.log -- \
	    $(MAKE) -C os-port $$($(TARGETS_PY) sim xv6-make-args)

xv6-qemu: setup
	$(Q)$(STEP) "xv6 for qemu (kernel, user programs, fs.img)" $(LOGS)/xv6-qemu.log -- \
	    $(MAKE) -C os-port PLATFORM=qemu

sim: xv6-litex
	$(Q)$(TARGETS_PY) sim console

qemu: xv6-qemu
	$(MAKE) -C os-port qemu

run: xv6-$(PLATFORM)
	$(PY) scripts/xv6run.py --platform $(PLATFORM) --split --cmd "$(CMD)"

# Board twin: the board's own SoC and memory path in Verilator (boards/twin.py).
#   make twin [BOARD=ulx3s]              xv6 shell on the twin (Ctrl-C leaves)
#   make twin-run CMD='ls; hash hello'   scripted xv6 session on the twin
#   make twin-fw [APP=main|demo|FILE.c]  bare-metal self-test + benchmark (or the demo, or yours)
#   make twin-serial-boot                the board's BIOS, litex_term --images over TCP
BOARD ?= ulx3s
APP ?= main
TWIN := $(BOARD)-twin

twin-build: setup
	$(Q)$(TARGETS_PY) $(TWIN) build

xv6-$(BOARD): twin-build
	$(Q)$(STEP) "xv6 for the $(BOARD) twin (kernel, user programs, fs.img)" $(LOGS)/xv6-$(BOARD).log -- \
	    $(MAKE) -C os-port $$($(TARGETS_PY) $(TWIN) xv6-make-args)

twin: xv6-$(BOARD)
	$(Q)$(TARGETS_PY) $(TWIN) console

twin-run: xv6-$(BOARD)
	$(Q)$(PY) scripts/xv6run.py --platform litex --target $(TWIN) --split --cmd "$(CMD)"

twin-fw: twin-build
	$(Q)$(PY) -m soc.runfw --target $(TWIN) --app $(APP)

# A bare-metal program on litex_sim: APP=main|demo|dmacontend, or your own C file
# (README, "Your own bare-metal program": make fw APP=firmware/examples/hello_hash.c).
fw: sim-build
	$(Q)$(PY) -m soc.runfw --app $(APP)

# FS=small (a RAM disk with init, sh, ls, hash: ~3 min here) or FS=full (the 2 MB fs.img)
FS ?= small
twin-serial-boot: xv6-$(BOARD)
	$(PY) scripts/serialboot.py --board $(BOARD) --fs $(FS) --cmd 'hash -p hw hello'

# The device key (keys/device_key) stays: `make destroy-device-key` is the one way to delete it.
clean:
	rm -rf build

HASHSOC_TOP_MAKEFILE := 1
-include boards/boards.mk
