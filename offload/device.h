/* The OpenMP offload device of an offload build (make OFFLOAD=host|nvptx|
 * amdgcn, docs/offload.md): making sure a target region never falls back to
 * the host unnoticed, and naming the device every output reports. In a
 * build without offload every function here is inert. */
#ifndef CLOMP_OFFLOAD_DEVICE_H
#define CLOMP_OFFLOAD_DEVICE_H

#include <stddef.h>

/* 1 in an offload build. */
int offload_built(void);

/* Offload builds: OMP_TARGET_OFFLOAD=mandatory before any OpenMP runtime
 * reads its environment (libgomp reads it while the program loads): when
 * the environment says otherwise, the program executes itself again with
 * it set, once. Returns; exits 3 with one line when that fails. */
void offload_force_mandatory(char **argv);

/* Offload builds: opens device `requested` (-1: the runtime's default),
 * checks that a target region really runs on it (not on the host) and
 * names it. Returns 0, or the exit status with one line in why: 2 for a
 * device number out of range or --offload-device in a build without
 * offload, 3 for no device ("no device: host fallback refused"). */
int offload_open(long requested, char *why, size_t size);

/* The opened device's number, for device(...) clauses and omp_target_*. */
int offload_device(void);

/* One line naming the device: vendor and model, the runtime and driver
 * versions as they report them; the host plugin says it is no accelerator.
 * NULL in a build without offload or before offload_open(). */
const char *offload_device_text(void);

/* 1: the device is libomptarget's host plugin (the CPU, not an accelerator). */
int offload_host_plugin(void);

/* What OMP_TARGET_OFFLOAD was before clomp set it ("unset" or its text). */
const char *offload_previous_policy(void);

#endif
