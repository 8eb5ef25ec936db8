/* SPDX-License-Identifier: MIT */
/* What the firmware programs share: the machine timer and ending a simulation. */
#ifndef APP_BOARD_H
#define APP_BOARD_H

#include <stdint.h>
#include <generated/csr.h>

void platform_check_soc(void);
void platform_irq_init(void);

/* The CPU's 64-bit machine timer: one tick per system clock. */
static inline uint64_t now(void)
{
  cpu_timer_latch_write(1);
  return cpu_timer_time_read();
}

/* Stop litex_sim through its sim_finish CSR; on a board, idle. */
static inline void finish(void)
{
#ifdef CSR_SIM_FINISH_BASE
  sim_finish_finish_write(1);
#endif
  for (;;)
    ;
}

#endif
