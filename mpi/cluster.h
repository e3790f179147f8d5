/* The ranks of a hybrid MPI + OpenMP run (clomp_mpi, make MPI=1) and what
 * they do together: start, line up before every timed run, share each
 * measurement with rank 0, agree on every failure, stop together. The plain
 * clomp links mpi/cluster_single.c instead: one rank, no MPI, nothing shared.
 *
 * Every collective wait has a deadline (cluster_set_timeout): a rank that
 * died or stopped ends the run on the others with a one-line error, instead
 * of leaving them waiting forever. */
#ifndef CLOMP_CLUSTER_H
#define CLOMP_CLUSTER_H

#include <stddef.h>

#include "../measure/record.h"

/* Starts MPI (clomp_mpi) with MPI_THREAD_FUNNELED: only the thread that
 * called it calls MPI, never from inside an OpenMP region. Returns 0, or
 * EXIT_RESOURCE with the reason in `why` when the library refuses that level. */
int cluster_start(int *argc, char ***argv, char *why, size_t why_size);

/* 1 in clomp_mpi (even as a single rank), 0 in the plain clomp. */
int cluster_active(void);
int cluster_rank(void);
int cluster_size(void);
/* "MPI_THREAD_FUNNELED", as MPI_Init_thread provided it. */
const char *cluster_thread_level(void);

/* This rank's host name and CPU list (its affinity mask at start, before
 * any OpenMP thread exists). */
const RankInfo *cluster_self(void);
/* Every rank's, on rank 0 (NULL on the others and in the plain clomp). */
const RankInfo *cluster_ranks(void);

/* Called (rank 0 writes its failure record) before a rank ends the run on
 * every rank: a collective wait that passed its deadline, an MPI error. */
void cluster_on_abort(void (*write_failure)(int status, const char *why));

/* Seconds a collective may wait beyond 4 x the work this rank did since
 * the previous one before the run is declared broken (--mpi-timeout). */
void cluster_set_timeout(double seconds);

/* After the noise census's probe, on every rank: rank 0 receives each
 * rank's own busy verdict into cluster_ranks() (RankInfo.busy...). */
void cluster_share_noise(const NoiseCensus *census);

/* All ranks take the smallest of their values (the chunk count each one's
 * calibration chose, so that every rank times the same chunks). */
long cluster_min(long value);

/* Right before a timed run (outside the timed region), as in CLOMP 1.2:
 * all ranks start it together. */
void cluster_barrier(void);

/* After every timed run on every rank: rank 0 receives each rank's
 * measurement (`m`, its figures final after its last round) and its status, and
 * every rank returns the same verdict: 0, or the first failure on any rank
 * (a rank's own status, or a checksum that differs from rank 0's), whose
 * reason, naming the rank and its host, is put in `why`. On rank 0 the
 * ranks' measurements then sit in `table`. */
int cluster_share(const RunSetup *run, const Measurement *m, size_t index, int status, RankTable *table,
                  char *why, size_t why_size);
void free_rank_table(RankTable *table);

/* Ends the run on every rank with `status` after a failure only this rank
 * may know of (no return). Plain clomp: exit(status). */
__attribute__((noreturn)) void cluster_abort(int status);

/* The normal end: MPI_Finalize (clomp_mpi). */
void cluster_finish(void);

#endif
