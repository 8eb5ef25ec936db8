/* SPDX-License-Identifier: MIT */
/*
 * The host shim's variables and functions (hash_plat_host.h), and the few accessors the
 * tests need: the arena that stands for main RAM, the size of struct hash_ctx and the
 * fields a test looks at.
 */
#include "hashsoc/hash.h"
#include "hash_plat_host.h"

uint32_t (*hash_host_read)(uintptr_t addr);
void (*hash_host_write)(uintptr_t addr, uint32_t v);
void (*hash_host_irq)(int engine);
uintptr_t hash_host_bus_origin;
uint32_t hash_host_spin_limit = 1000;
uint32_t hash_host_polls_before_sleep;
unsigned char hash_host_device_key[HASH_DEVICE_KEY_BYTES];

/* Where tests put messages, contexts and descriptor lists: in .bss, so inside the DMA window. */
#define HASH_HOST_ARENA_BYTES (1u << 20)
unsigned char hash_host_arena[HASH_HOST_ARENA_BYTES] __attribute__((aligned(64)));

int hash_host_lock_depth[HASH_ENGINE_COUNT];
int hash_host_lock_faults; /* a lock taken twice, an unlock without a lock, a bad engine */
int hash_host_irq_waits;

/* The linker's bounds of .bss (hidden: this object's own, not the executable's). */
extern char __bss_start[] __attribute__((visibility("hidden")));
extern char _end[] __attribute__((visibility("hidden")));

/* Main RAM as the model sees it: [MAIN_RAM_BASE, MAIN_RAM_BASE + size) on the bus. */
uint32_t hash_host_init(void)
{
  hash_host_bus_origin = (uintptr_t)__bss_start - MAIN_RAM_BASE;
  return (uint32_t)(_end - __bss_start);
}

uint32_t hash_host_arena_bytes(void)
{
  return HASH_HOST_ARENA_BYTES;
}

void hash_plat_lock(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT || hash_host_lock_depth[engine]++)
    hash_host_lock_faults++;
}

void hash_plat_unlock(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT || --hash_host_lock_depth[engine])
    hash_host_lock_faults++;
}

/* The model decides whether the interrupt comes (it then calls hash_isr(), which sets
 * *flag); the driver confirms by polling either way. */
void hash_plat_irq_wait(int engine, volatile int *flag)
{
  hash_host_irq_waits++;
  if (!*flag)
    hash_host_irq(engine);
}

unsigned hash_host_ctx_size(void)
{
  return sizeof(struct hash_ctx);
}

uint32_t hash_host_ctx_hw_errors(const struct hash_ctx *c)
{
  return c->hw_errors;
}

int hash_host_ctx_hw_saved(const struct hash_ctx *c)
{
  return c->hw_saved;
}
