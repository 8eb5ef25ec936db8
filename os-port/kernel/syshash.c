/* SPDX-License-Identifier: MIT */
/*
 * The hashing system calls (docs/hash-syscall.md; hmac, hmacverify and
 * verify: docs/integrity.md). As everywhere in xv6,
 * a sys_ function only fetches its arguments; the work is in khash.c and
 * khashbench.c (hashopen, which allocates a file descriptor, is in
 * sysfile.c beside pipe).
 */
#include "types.h"
#include "riscv.h"
#include "defs.h"
#include "khash.h"
#include "integrity.h"

/* hash(alg, provider, buf, len, out, outlen) */
uint32 sys_hash(void)
{
  int alg, prov, len, outlen;
  uintptr buf, out;
  argint(0, &alg);
  argint(1, &prov);
  argaddr(2, &buf);
  argint(3, &len);
  argaddr(4, &out);
  argint(5, &outlen);
  return khash_user(alg, prov, buf, (uint)len, out, (uint)outlen);
}

/* khashbench(alg, provider, count, size, &elapsed) */
uint32 sys_khashbench(void)
{
  int alg, prov, count, size;
  uintptr out;
  argint(0, &alg);
  argint(1, &prov);
  argint(2, &count);
  argint(3, &size);
  argaddr(4, &out);
  return khash_bench_user(alg, prov, count, size, out);
}

/* hmac(alg, provider, key, keylen, buf, len, out) */
uint32 sys_hmac(void)
{
  int alg, prov, keylen, len;
  uintptr key, buf, out;
  argint(0, &alg);
  argint(1, &prov);
  argaddr(2, &key);
  argint(3, &keylen);
  argaddr(4, &buf);
  argint(5, &len);
  argaddr(6, &out);
  return khash_hmac_user(alg, prov, key, (uint)keylen, buf, (uint)len, out);
}

/* kmac(alg, provider, key, buf, len, out, outlen); key: a struct kmac_key */
uint32 sys_kmac(void)
{
  int alg, prov, len, outlen;
  uintptr key, buf, out;
  argint(0, &alg);
  argint(1, &prov);
  argaddr(2, &key);
  argaddr(3, &buf);
  argint(4, &len);
  argaddr(5, &out);
  argint(6, &outlen);
  return khash_kmac_user(alg, prov, key, buf, (uint)len, out, (uint)outlen);
}

/* hmacverify(alg, provider, buf, len, mac, maclen) */
uint32 sys_hmacverify(void)
{
  int alg, prov, len, maclen;
  uintptr buf, mac;
  argint(0, &alg);
  argint(1, &prov);
  argaddr(2, &buf);
  argint(3, &len);
  argaddr(4, &mac);
  argint(5, &maclen);
  return khash_hmac_devcheck(alg, prov, buf, (uint)len, mac, (uint)maclen);
}

/* verify() */
uint32 sys_verify(void)
{
  return integrity_verify();
}

/* measure(value) */
uint32 sys_measure(void)
{
  uintptr value;
  argaddr(0, &value);
  return integrity_measure(value);
}
