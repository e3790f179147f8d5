/* From the command line to a run that can be measured: the inputs resolved,
 * the OpenMP runtime configured, the team's placement observed once and the
 * nested shape chosen from it, the mesh built, the chunks planned. Every step
 * returns 0, or an exit status (cli/exit_status.h) with a one-line reason in
 * `why`; main says it and stops. */
#ifndef CLOMP_SETUP_H
#define CLOMP_SETUP_H

#include <stddef.h>
#include <stdio.h>

#include "../cli/options.h"
#include "../measure/record.h"

/* clomp --topology (among the arguments; before MPI starts): the job's
 * cores counted (--cores=N honoured) and handed to `answer`, whose status is
 * returned; a bad argument said in a line, its usage status returned; -1
 * when --topology is not asked. */
int topology_query(int argc, char **argv, int (*answer)(FILE *out, const JobCores *jc));

/* -1 thread counts, zone size, iteration count, memory, schedules, and the
 * --trials plan (run->chunk_end, freed by the caller). */
int resolve_run(const Options *opts, int argc, char **argv, RunSetup *run, char *why, size_t why_size);

/* --constructs: the keys of its LIST (exit 2 for an unknown one), its
 * options refused without it, a --nested shape too large for it refused. */
int resolve_constructs(const Options *opts, RunSetup *run, char *why, size_t why_size);

/* Refuses (EXIT_RESOURCE) a thread count or --nested shape the runtime or
 * the system cannot create: the OpenMP thread limit, RLIMIT_NPROC, the
 * system's and the cgroup's room for threads, the address space for their
 * stacks and (libgomp) the launching thread's stack (thread_limits.c). */
int check_thread_limits(const RunSetup *run, char *why, size_t why_size);

/* Exact team sizes and room for nested teams; then the timed team's thread
 * placement, observed once (free_team_placement), and Nested OMP's default
 * shape from it (or N/A below 2x2 threads). */
int configure_openmp(RunSetup *run, TeamPlacement *placement, char *why, size_t why_size);

/* The measurements of the table in order: selected or not, and available
 * here or not; their timing arrays for run->rounds rounds. NULL when out of
 * memory (free_measurements + free). */
Measurement *create_measurements(const RunSetup *run);

/* Builds the mesh (timing the build), calibrates the deposit, builds the
 * warm-up mesh when the mesh is large, then plans the default chunks from
 * the time of untimed serial sweeps over the parts and reserves Serial
 * Ref's checkpoints. */
int build_problem(Problem *pb, RunSetup *run, double *build_seconds, char *why, size_t why_size);

/* Zones per part of the warm-up mesh (Problem.warmup), 0 when the mesh
 * warms up on itself (what it touches is small enough, or as small as that
 * one). */
long warmup_zones_per_part(const RunSetup *run);

/* Builds pb->warmup when run->warmup_zones_per_part (warmup_zones_per_part(),
 * set by resolve_run) says so, else NULL; after the mesh and its deposit:
 * -1 when out of memory. */
int build_warmup_problem(Problem *pb, const RunSetup *run);

/* The mesh and the warm-up mesh. */
void free_problem(Problem *pb);

/* Shared by setup's files. */
/* Checkpoints of Serial Ref: one per chunk and part. */
#define CHECKPOINT_BYTES_PER_PART (2 * sizeof(double) + sizeof(unsigned long long))
/* The default never lets them outgrow the mesh itself, or this much. */
#define CHECKPOINT_BYTES_FLOOR (64.0 * 1024 * 1024)
/* _SC_PHYS_PAGES (all memory) or _SC_AVPHYS_PAGES (free now). */
size_t setup_memory_bytes(int which);
/* run->chunk_end for run->trials chunks. */
int setup_chunk_plan(RunSetup *run, char *why, size_t why_size);

#endif
