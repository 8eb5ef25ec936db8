/* SPDX-License-Identifier: MIT */
/* RV32 privileged-architecture helpers (Sv32, 32-bit CSRs). */
#ifndef XV_RISCV_H
#define XV_RISCV_H
#ifndef __ASSEMBLER__
#include "types.h"

#define CSR_READ(name)                                                                                       \
  ({                                                                                                         \
    uint32 __v;                                                                                              \
    asm volatile("csrr %0, " #name : "=r"(__v));                                                             \
    __v;                                                                                                     \
  })
#define CSR_WRITE(name, v) asm volatile("csrw " #name ", %0" ::"r"((uint32)(v)))
#define CSR_SET(name, v)   asm volatile("csrs " #name ", %0" ::"r"((uint32)(v)))
#define CSR_CLEAR(name, v) asm volatile("csrc " #name ", %0" ::"r"((uint32)(v)))

/* machine status bits */
#define MSTATUS_SIE      (1u << 1)
#define MSTATUS_MIE      (1u << 3)
#define MSTATUS_SPIE     (1u << 5)
#define MSTATUS_MPIE     (1u << 7)
#define MSTATUS_SPP      (1u << 8)
#define MSTATUS_MPP_MASK (3u << 11)
#define MSTATUS_MPP_M    (3u << 11)
#define MSTATUS_MPP_S    (1u << 11)
#define MSTATUS_MPP_U    (0u << 11)
#define MSTATUS_MPRV     (1u << 17)
#define MSTATUS_SUM      (1u << 18)
#define MSTATUS_MXR      (1u << 19)

/* supervisor status bits (a view of mstatus) */
#define SSTATUS_SPP  (1u << 8)
#define SSTATUS_SPIE (1u << 5)
#define SSTATUS_SIE  (1u << 1)

/* interrupt bits in mip/mie/sip/sie */
#define IRQ_SSI  1
#define IRQ_MSI  3
#define IRQ_STI  5
#define IRQ_MTI  7
#define IRQ_SEI  9
#define IRQ_MEI  11
#define MIP_SSIP (1u << IRQ_SSI)
#define MIP_STIP (1u << IRQ_STI)
#define MIP_MTIP (1u << IRQ_MTI)
#define MIP_SEIP (1u << IRQ_SEI)
#define MIE_MTIE (1u << IRQ_MTI)
#define MIE_MEIE (1u << IRQ_MEI)
#define SIE_SSIE (1u << IRQ_SSI)
#define SIE_STIE (1u << IRQ_STI)
#define SIE_SEIE (1u << IRQ_SEI)

/* exception causes */
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS     1
#define CAUSE_ILLEGAL_INSN     2
#define CAUSE_BREAKPOINT       3
#define CAUSE_MISALIGNED_LOAD  4
#define CAUSE_LOAD_ACCESS      5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS     7
#define CAUSE_USER_ECALL       8
#define CAUSE_SUPERVISOR_ECALL 9
#define CAUSE_MACHINE_ECALL    11
#define CAUSE_FETCH_PAGE_FAULT 12
#define CAUSE_LOAD_PAGE_FAULT  13
#define CAUSE_STORE_PAGE_FAULT 15
#define CAUSE_INTR             0x80000000u

static inline uint32 r_sstatus(void)
{
  return CSR_READ(sstatus);
}
static inline void w_sstatus(uint32 x)
{
  CSR_WRITE(sstatus, x);
}
static inline uint32 r_sip(void)
{
  return CSR_READ(sip);
}
static inline void w_sip(uint32 x)
{
  CSR_WRITE(sip, x);
}
static inline uint32 r_sie(void)
{
  return CSR_READ(sie);
}
static inline void w_sie(uint32 x)
{
  CSR_WRITE(sie, x);
}
static inline uint32 r_sepc(void)
{
  return CSR_READ(sepc);
}
static inline void w_sepc(uint32 x)
{
  CSR_WRITE(sepc, x);
}
static inline uint32 r_scause(void)
{
  return CSR_READ(scause);
}
static inline uint32 r_stval(void)
{
  return CSR_READ(stval);
}
static inline uint32 r_stvec(void)
{
  return CSR_READ(stvec);
}
static inline void w_stvec(uint32 x)
{
  CSR_WRITE(stvec, x);
}
static inline uint32 r_satp(void)
{
  return CSR_READ(satp);
}
static inline void w_satp(uint32 x)
{
  CSR_WRITE(satp, x);
}
static inline uint32 r_sp(void)
{
  uint32 x;
  asm volatile("mv %0, sp" : "=r"(x));
  return x;
}
static inline uint32 r_tp(void)
{
  uint32 x;
  asm volatile("mv %0, tp" : "=r"(x));
  return x;
}
static inline void w_tp(uint32 x)
{
  asm volatile("mv tp, %0" ::"r"(x));
}
static inline uint32 r_ra(void)
{
  uint32 x;
  asm volatile("mv %0, ra" : "=r"(x));
  return x;
}

/* The `time` CSR.  On VexRiscv it does not exist and on QEMU we keep it
 * disabled for S/U (mcounteren.TM = 0), so these reads trap to machine
 * mode, which emulates them.  Reads timeh/time/timeh and retries on a
 * carry so that the 64-bit value is consistent. */
static inline uint64 r_time64(void)
{
  uint32 hi, lo, hi2;
  do {
    asm volatile("csrr %0, timeh" : "=r"(hi));
    asm volatile("csrr %0, time" : "=r"(lo));
    asm volatile("csrr %0, timeh" : "=r"(hi2));
  } while (hi != hi2);
  return ((uint64)hi << 32) | lo;
}

static inline void intr_on(void)
{
  CSR_SET(sstatus, SSTATUS_SIE);
}
static inline void intr_off(void)
{
  CSR_CLEAR(sstatus, SSTATUS_SIE);
}
static inline int intr_get(void)
{
  return (r_sstatus() & SSTATUS_SIE) != 0;
}

static inline void sfence_vma(void)
{
  asm volatile("sfence.vma zero, zero" ::: "memory");
}
static inline void fence_i(void)
{
  asm volatile("fence.i" ::: "memory");
}
#endif /* __ASSEMBLER__ */

/* Sv32 paging */
#define PGSIZE         4096
#define PGSHIFT        12
#define PGROUNDUP(sz)  (((sz) + PGSIZE - 1) & ~(uintptr)(PGSIZE - 1))
#define PGROUNDDOWN(a) ((a) & ~(uintptr)(PGSIZE - 1))

#define PTE_V (1u << 0)
#define PTE_R (1u << 1)
#define PTE_W (1u << 2)
#define PTE_X (1u << 3)
#define PTE_U (1u << 4)
#define PTE_G (1u << 5)
#define PTE_A (1u << 6)
#define PTE_D (1u << 7)

/* a PTE holds a 22-bit PPN in bits 31..10 */
#define PA2PTE(pa)     ((((uintptr)(pa)) >> 12) << 10)
#define PTE2PA(pte)    (((pte) >> 10) << 12)
#define PTE_FLAGS(pte) ((pte)&0x3FF)

/* two levels: VPN[1] = va[31:22], VPN[0] = va[21:12] */
#define PXSHIFT(level) (PGSHIFT + 10 * (level))
#define PX(level, va)  ((((uintptr)(va)) >> PXSHIFT(level)) & 0x3FF)

#define SATP_SV32     (1u << 31)
#define MAKE_SATP(pt) (SATP_SV32 | (((uintptr)(pt)) >> 12))
#endif
