# SPDX-License-Identifier: MIT
# One set of flags for the portable software hashes, wherever they are compiled
# (firmware, xv6 kernel, xv6 user programs): seed 002 found that kernel/user speed
# differences came from build flags, not from the privilege level.
SWHASH_DIR   := $(dir $(lastword $(MAKEFILE_LIST)))
SWHASH_SRCS  := $(SWHASH_DIR)sha256_sw.c $(SWHASH_DIR)sha512_sw.c $(SWHASH_DIR)keccak_sw.c $(SWHASH_DIR)hmac_sw.c \
                $(SWHASH_DIR)sp800185_sw.c
SWHASH_ARCH  := -march=rv32ima -misa-spec=2.2 -mabi=ilp32
SWHASH_CFLAGS := $(SWHASH_ARCH) -O2 -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
                 -Wall -Wextra -I$(SWHASH_DIR)
