/* The CLOMP 1.2 report: header, one block per measurement, comma-delimited
 * summary and the CORAL RFP line. 1.2's lines keep their text and columns;
 * clomp's additions come after them. */
#ifndef CLOMP_REPORT_H
#define CLOMP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../measure/record.h"
#include "build_info.h"

void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time);
/* The set-up lines; `warnings` are the set-up warnings found so far (see
 * measure/warnings.h). Measures the mesh's locality into *locality. */
void print_setup(FILE *out, const RunSetup *run, const Problem *pb, double build_seconds, LocalitySummary *locality,
                 const WarningList *warnings);
/* --dry-run: what a run would do, after the header, without a mesh. */
void print_plan(FILE *out, const RunSetup *run);

void print_block_start(FILE *out, const Measurement *m);
/* In place of the block of a measurement that cannot run here (Nested OMP
 * below 2x2 threads): its name and why; nothing when it simply was not
 * selected. */
void print_block_unavailable(FILE *out, const RunSetup *run, const Measurement *m);
/* serial / bestcase: earlier measurements this block is compared with (may be NULL). */
void print_block_results(FILE *out, const RunSetup *run, const Measurement *m,
                         const Measurement *serial, const Measurement *bestcase);

/* Cycles of the barrier, fork/join and parallel-for overhead against LLNL's
 * targets; after the last block, before the summary. */
void print_targets(FILE *out, const RunSetup *run, const Measurement *results, size_t count);

/* "met", "not met", "undecided" (the interval straddles the target) or
 * "unavailable" (no cycle rate: cycles is NAN). */
const char *target_verdict(double cycles, int has_ci, double low, double high, double target);

/* "Process CPU time: U s user, S s system, W s wall ...: C CPUs busy on
 * average": after the targets, before the summary (a clomp line). */
void print_process_cost(FILE *out, const ProcessCost *cost);

void print_summary(FILE *out, const RunSetup *run, const Measurement *results, size_t count);

/* MPI runs, after the LLNL targets: the ranks whose Serial Ref us/Loop or
 * Static OMP overhead stands out, with their hosts. */
void print_rank_outliers(FILE *out, const RunSetup *run, const RankOutliers *outliers);

/* `value` rounded to the first significant digit of `uncertainty` (one
 * digit more is never supported by the data); plain %.*f with max_decimals
 * when there is no uncertainty. Returns buf. */
const char *measured_text(char *buf, size_t size, double value, double uncertainty, int max_decimals);

/* Whether an environment entry ("NAME=value") steers an OpenMP runtime
 * (OMP_*, GOMP_*, KMP_*, XLSMPOPTS, LIBOMP_*): the text report and the JSON
 * list the same ones. */
int is_openmp_variable(const char *entry);

/* Escaped as in the report: bytes outside printable ASCII as \xNN. */
void print_escaped(FILE *out, const char *text);

/* Whether the summary, the JSON and the CSV show a measurement: every one of
 * the default sequence (N/A, null or empty when --schedules leaves it out, so
 * that CLOMP 1.2's columns keep their places), then the optional schedules
 * that ran, in table order (the table lists them last). */
int measurement_reported(const Measurement *m);

#endif
