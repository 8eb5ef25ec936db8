/* SPDX-License-Identifier: MIT */
#ifndef XV_PLAT_H
#define XV_PLAT_H
#if defined(PLATFORM_QEMU)
#include "plat_qemu.h"
#elif defined(PLATFORM_LITEX)
#include "plat_litex.h"
#else
#error "define PLATFORM_QEMU or PLATFORM_LITEX"
#endif
#endif
