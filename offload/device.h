/* The OpenMP offload device of an offload build (make OFFLOAD=host|nvptx|
 * amdgcn, docs/offload.md): making sure a target region never falls back to
 * the host unnoticed, and naming the device every output reports. In a
 * build without offload every function here is inert. */
#ifndef CLOMP_OFFLOAD_DEVICE_H
#define CLOMP_OFFLOAD_DEVICE_H

#include <stddef.h>

#include "device_info.h"

/* 1 in an offload build. Offload builds also set OMP_TARGET_OFFLOAD=mandatory
 * before any OpenMP runtime reads its environment (libgomp reads it while
 * the program loads): when the environment says otherwise, a constructor
 * executes the program again with it set, once (exit 3 if it cannot). */
int offload_built(void);

/* Offload builds: opens device `requested` (-1: the runtime's default),
 * checks that a target region really runs on it (not on the host) and
 * names it. Returns 0, or the exit status with one line in why: 2 for a
 * device number out of range or --offload-device in a build without
 * offload, 3 for no device ("no device: host fallback refused"). */
int offload_open(long requested, char *why, size_t size);

/* The opened device's number, for device(...) clauses and omp_target_*. */
int offload_device(void);

#endif
