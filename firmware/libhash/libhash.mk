# SPDX-License-Identifier: MIT
# The hash library: one API (include/hashsoc/hash.h), its driver (driver/, a file per job:
# driver/hash_driver.h says which) and the
# portable software hashes (swhash/), compiled into each of its three users:
#   bare-metal firmware   firmware/baremetal/Makefile   shim: baremetal/hash_plat_baremetal.h
#   the xv6 kernel        os-port/Makefile              shim: kernel/hash_plat_kernel.h
#   xv6 user programs     os-port/Makefile              shim: user/hash_plat_user.h
# A user compiles each of LIBHASH_DRIVER with -DHASH_PLAT='"hash_plat_<platform>.h"' (LIBHASH_PLAT
# below) and its shim's folder on the include path; docs/driver-api.md has the contract.
LIBHASH_DIR      := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
LIBHASH_INCLUDES := -I$(LIBHASH_DIR)/include -I$(LIBHASH_DIR)/swhash
LIBHASH_DRIVER   := $(addprefix $(LIBHASH_DIR)/driver/,hash_api.c hash_engine.c hash_feed.c hash_keyed.c \
                      hash_short.c hash_isr.c)
LIBHASH_DRIVER_H := $(LIBHASH_DIR)/driver/hash_driver.h
LIBHASH_SPEC     := $(LIBHASH_DIR)/include/hashsoc/hash_spec.h
LIBHASH_PLAT      = -DHASH_PLAT='"$(1)"'
include $(LIBHASH_DIR)/swhash/swhash.mk

# hash_spec.h is generated from the one description of the engines (gateware/hashspec.py,
# standard-library Python only); objects that include it depend on it through their .d
# files, so a changed description rebuilds them. (This rule must not become the
# including Makefile's default goal.)
_libhash_goal := $(.DEFAULT_GOAL)
$(LIBHASH_SPEC): $(LIBHASH_DIR)/../../gateware/hashspec.py $(LIBHASH_DIR)/../../scripts/genspec.py
	python3 $(LIBHASH_DIR)/../../scripts/genspec.py --header
.DEFAULT_GOAL := $(_libhash_goal)
