#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One idempotent set-up for HashSoC: Debian packages, then a project-local venv (.venv)
# with pinned Python packages. `make demo`, `make test` and friends run it first;
# a stamp file makes the second run take well under a second.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

debs=(verilator gcc-riscv64-unknown-elf libevent-dev libjson-c-dev meson ninja-build
      qemu-system-misc yosys openocd openfpgaloader python3-venv build-essential
      device-tree-compiler zlib1g-dev)

stamp=.venv/.setup-stamp
want=$(cat scripts/setup.sh scripts/requirements.txt | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    exit 0
fi

missing=()
for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "[setup] installing Debian packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
    echo "[setup] creating .venv"
    python3 -m venv .venv
fi
echo "[setup] installing pinned Python packages into .venv"
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -r scripts/requirements.txt
echo "$want" > "$stamp"
echo "[setup] done"
