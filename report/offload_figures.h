/* The offload figures (docs/offload.md), in offload builds only: every
 * other build's reports keep their columns and lines exactly. */
#ifndef CLOMP_OFFLOAD_FIGURES_H
#define CLOMP_OFFLOAD_FIGURES_H

#include <stdio.h>

#include "../measure/record.h"
#include "../offload/device.h"

/* The launch overhead per subcycle: Offload OMP's us/Loop minus Dev
 * Bestcase's (one launch per chunk), from the Runtimes (runtime 1) or the
 * median chunks (0); NAN unless m is Offload OMP and both are complete. */
double offload_launch_us(const Measurement *offload, const Measurement *device_bestcase, int runtime);

/* Offload OMP's block: its launch overhead per subcycle, one line. */
void print_offload_launch(FILE *out, const Measurement *offload, const Measurement *device_bestcase);

#ifdef CLOMP_OFFLOAD
/* Appended per-measurement columns (report/figures.c): the device on every
 * row, the launch overhead on Offload OMP's. */
#define OFFLOAD_FIGURE_COLUMNS(X) \
    X(offload_device, NULL, text(offload_device_text())) \
    X(offload_launch_us_per_subcycle, "offload_launch_us_per_subcycle", \
      number(offload_launch_us(m, record_find_key(r, "offload_bestcase"), 1))) \
    X(offload_launch_median_us_per_subcycle, "offload_launch_median_us_per_subcycle", \
      number(offload_launch_us(m, record_find_key(r, "offload_bestcase"), 0)))
#else
#define OFFLOAD_FIGURE_COLUMNS(X)
#endif

#endif
