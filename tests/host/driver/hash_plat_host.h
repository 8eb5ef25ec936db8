/* SPDX-License-Identifier: MIT */
/*
 * The hash library's shim for host tests (tests/test_driver_host.py): the driver compiled
 * with the host's gcc into a shared object whose every register access goes to Python.
 *
 *  - registers: hash_plat_read/write call function pointers that the test sets (ctypes
 *    callbacks) to a register-level model of the engines (tests/host/driver/model.py);
 *    the addresses are the ones LiteX's csr.h and mem.h give, written for the host by
 *    tests/host/driver/headers.py, and are never dereferenced;
 *  - bus addresses: 32 bits on the SoC, 64-bit pointers here. "Main RAM" is this shared
 *    object's .bss (the test's arena and the driver's own descriptor lists are both
 *    there), seen at MAIN_RAM_BASE: bus = pointer - hash_host_bus_origin. Anything else
 *    (the stack, Python's heap) lands outside the model's DMA window, as memory outside
 *    main RAM does on the SoC;
 *  - bounds: HASH_PLAT_SPIN_LIMIT and HASH_PLAT_POLLS_BEFORE_SLEEP are variables, so that
 *    a test makes a hung engine time out after a few polls;
 *  - lock: counted, so that a test sees a lock taken twice or never released (a real
 *    platform's sleep lock would deadlock or stay held);
 *  - irq wait: asks the model to let its interrupt fire (it calls hash_isr()).
 */
#ifndef HASH_PLAT_HOST_H
#define HASH_PLAT_HOST_H

#include <stdint.h>
#include <generated/csr.h>
#include <generated/mem.h>

extern uint32_t (*hash_host_read)(uintptr_t addr);
extern void (*hash_host_write)(uintptr_t addr, uint32_t v);
extern void (*hash_host_irq)(int engine);
extern uintptr_t hash_host_bus_origin;
extern uint32_t hash_host_spin_limit;
extern uint32_t hash_host_polls_before_sleep;
extern unsigned char hash_host_device_key[];

static inline uint32_t hash_plat_read(uintptr_t addr)
{
  return hash_host_read(addr);
}
static inline void hash_plat_write(uintptr_t addr, uint32_t v)
{
  hash_host_write(addr, v);
}

void hash_plat_lock(int engine);
void hash_plat_unlock(int engine);
void hash_plat_irq_wait(int engine, volatile int *flag);

static inline uint32_t hash_plat_bus_addr(const void *p)
{
  return (uint32_t)((uintptr_t)p - hash_host_bus_origin);
}

#define HASH_PLAT_SPIN_LIMIT         hash_host_spin_limit
#define HASH_PLAT_POLLS_BEFORE_SLEEP hash_host_polls_before_sleep
/* Software HMAC with HASH_F_DEVKEY: the model's device key, so that the engine's device-key
 * HMAC and software's can be compared. */
#define HASH_PLAT_SW_DEVICE_KEY      hash_host_device_key

#endif
