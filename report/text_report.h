/* The text report: CLOMP 1.2's header, one block per measurement, the
 * comma-delimited summary and the CORAL RFP line; 1.2's lines keep their
 * text and columns, clomp's additions come after them. Every function reads
 * the run record and prints; none measures. */
#ifndef CLOMP_TEXT_REPORT_H
#define CLOMP_TEXT_REPORT_H

#include <stdio.h>

#include "../measure/record.h"

/* --help: the usage, then the keys of the schedule and construct tables. */
void print_help(FILE *out, const char *exe);

/* CLOMP 1.2's header: the inputs as resolved (before anything is built). */
void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time);
/* The set-up lines after the mesh is built: deposit bounds, layout, build,
 * NUMA placement and locality, thread placement, trials, set-up warnings. */
void print_setup(FILE *out, const RunRecord *r);
/* The set-up's "Job cores" line, and "Oversubscribed" when the team is
 * larger than the job's cores (text_topology.c). */
void print_job_cores(FILE *out, const RunSetup *run);
/* clomp --topology: the job's cores and domains, one "name: value" a line; 0. */
int print_topology(FILE *out, const JobCores *jc);
/* --dry-run: what a run would do, after the header, without a mesh. */
void print_plan(FILE *out, const RunSetup *run);

void print_block_start(FILE *out, const Measurement *m);
/* In place of the block of a measurement that cannot run here (Nested OMP
 * below 2x2 threads): its name and why; nothing when it simply was not
 * selected. */
void print_block_unavailable(FILE *out, const RunSetup *run, const Measurement *m);
/* serial / bestcase: earlier measurements this block is compared with (may be NULL). */
void print_block_results(FILE *out, const RunSetup *run, const Measurement *m, const Measurement *serial,
                         const Measurement *bestcase);

/* Offload builds: Offload OMP's launch overhead per subcycle against Dev
 * Bestcase, one line after its block (text_offload.c); nothing otherwise. */
void print_offload_launch(FILE *out, const Measurement *offload, const Measurement *device_bestcase);
/* Offload builds: the header's device line (the dry run's too); nothing in other builds. */
void print_offload_device(FILE *out);

/* --ompt (text_ompt.c): the tool in the set-up lines (or that the runtime
 * does not provide OMPT), and in a block that a tool was attached, with its
 * census and samples. Nothing without --ompt. */
void print_ompt_setup(FILE *out, const RunSetup *run);
void print_ompt_block(FILE *out, const RunSetup *run, const Measurement *m);
/* The noise census (report/text_noise.c): the set-up's `Noise` block (the
 * probe, per thread), a measurement's `Noise` line (its chunks disturbed),
 * and the timed runs' per-thread totals at the end. */
void print_noise_census(FILE *out, const RunRecord *r);
void print_noise_line(FILE *out, const Measurement *m);
void print_noise_timed(FILE *out, const RunRecord *r);

/* After the blocks: the locality measured again after the timed runs
 * (numa_balancing on), the LLNL targets, the process's CPU time, MPI
 * outliers; then the summary. */
void print_run_end(FILE *out, const RunRecord *r);
void print_summary(FILE *out, const RunRecord *r);
/* --verdict, at the very end (after the CORAL RFP line and any construct
 * table): the answer block: does the target loop speed up (with its
 * interval), the project's overhead, barrier and fork/join against LLNL's
 * targets, and whether the machine was quiet enough to say so; on a busy
 * machine that alone, and what to do. */
void print_verdict(FILE *out, const RunRecord *r);

/* clomp --list-figures (text_figures.c): the catalogue of figures, one
 * tab-separated line each after a '#' header naming the columns. */
void print_figure_list(FILE *out);

/* clomp --constructs: the construct table, after the summary (before the answer). */
void print_constructs(FILE *out, const RunRecord *r);

/* clomp --limits: the "Node limits" block, after the construct table (text_limits.c). */
void print_limits(FILE *out, const RunRecord *r);

#endif
