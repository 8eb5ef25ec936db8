/* SPDX-License-Identifier: MIT */
/*
 * The engines' interrupt handler and their busy-cycle counters.
 */
#include "hash_driver.h"

/* The platform calls this from the engine's interrupt, without the engine's lock (the
 * thread that holds it may be asleep in drv_wait_status). It acknowledges the events and
 * disables them, so that the level does not interrupt again, and sets irq_flag, which the
 * waiter cleared before it enabled the events: a wakeup cannot be lost between the
 * waiter's last look at the status and its sleep (hash_plat_irq_wait returns at once
 * when the flag is already set). */
void hash_isr(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT)
    return;
  struct engine_state *e = &drv_engines[engine];
  wr(e, HREG(EV_PENDING), rd(e, HREG(EV_PENDING)));
  wr(e, HREG(EV_ENABLE), 0);
  e->irq_flag = 1;
}

/* The engine's count of clocks its core was busy since the message began. */
uint32_t hash_hw_busy_cycles(int engine)
{
  if (engine < 0 || engine >= HASH_ENGINE_COUNT || drv_engines[engine].csr == 0)
    return 0;
  return rd(&drv_engines[engine], HREG(BUSY_CYCLES));
}
