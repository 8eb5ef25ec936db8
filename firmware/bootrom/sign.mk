# SPDX-License-Identifier: MIT
# Sign a program for the ROM's check (docs/integrity.md, "Verified boot"): a bare-metal
# Makefile includes this and names its image; `$(BOOT_IMAGE_JSON)` (boot.json beside the
# image) is then made with the header (<image>.hdr) and the image, for litex_sim, the twins
# and litex_term --images. Key: this tree's (keys/device_key, or HASHSOC_DEVICE_KEY).
# Usage: BOOT_IMAGE := $(OUT)/firmware.bin; include .../firmware/bootrom/sign.mk
BOOT_SIGN_TOOL   := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../../scripts/signimage.py)
BOOT_IMAGE_JSON  := $(dir $(BOOT_IMAGE))boot.json
BOOT_IMAGE_HDR   := $(basename $(BOOT_IMAGE)).hdr

$(BOOT_IMAGE_HDR) $(BOOT_IMAGE_JSON) &: $(BOOT_IMAGE) $(BOOT_SIGN_TOOL)
	python3 $(BOOT_SIGN_TOOL) $(BOOT_IMAGE) --out $(BOOT_IMAGE_HDR) --boot-json $(BOOT_IMAGE_JSON)
