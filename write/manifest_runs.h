/* Each run's status in the suite manifest (write/manifest_runs.c): merged from <base>.done,
 * <base>.runs.csv and the entries of the manifest before. */
#ifndef CLOMP_SUITE_MANIFEST_RUNS_H
#define CLOMP_SUITE_MANIFEST_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "manifest_facts.h"

/* The run number S names (plain decimal, as bash's arrays key it: 03 is not 3), 1 to RUNS; else 0. */
size_t run_number(const char *s, size_t runs);
/* Runs 1 to RUNS, one a line, ",\n" between (SETS[k]: run k + 1's set; OLD[k]: run k's entry in the
 * manifest before, or NULL; F: base, run, running, reason). */
void put_runs(FILE *out, const struct facts *f, const char **sets, size_t runs, char **old);

#endif
