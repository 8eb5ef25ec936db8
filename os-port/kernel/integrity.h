/* SPDX-License-Identifier: MIT */
/* The image's integrity manifest (integrity.c, docs/integrity.md): checked
 * with the device key at boot, then consulted at every exec. */
#ifndef XV_INTEGRITY_H
#define XV_INTEGRITY_H
/* INTEGRITY_MODE, from the Makefile's INTEGRITY=off|log|enforce */
#define INTEGRITY_OFF     0 /* no check at boot or exec */
#define INTEGRITY_LOG     1 /* report what fails, run it anyway */
#define INTEGRITY_ENFORCE 2 /* refuse what fails; a rejected manifest stops the boot */
#ifndef INTEGRITY_MODE
#error "INTEGRITY_MODE must be defined by the build"
#endif
#define MANIFEST_MAX 8192 /* bytes of /manifest */
#define NMANIFEST    64   /* lines of /manifest */
struct inode;

void integrity_boot(void);                        /* forkret, after fsinit */
int integrity_exec(struct inode *ip, char *path); /* exec, ip locked: 0 = run it */
int integrity_verify(void);                       /* the verify system call */
int integrity_measure(uintptr dst);               /* the measure system call */
#endif
