/* The plain clomp: one process, no MPI (see cluster.h). */
#include "cluster.h"

#include <stdlib.h>

int cluster_start(int *argc, char ***argv, char *why, size_t why_size)
{
    (void)argc, (void)argv, (void)why, (void)why_size;
    return 0;
}

int cluster_active(void) { return 0; }
int cluster_rank(void) { return 0; }
int cluster_size(void) { return 1; }
const char *cluster_thread_level(void) { return NULL; }
const RankInfo *cluster_self(void) { return NULL; }
const RankInfo *cluster_ranks(void) { return NULL; }
void cluster_on_abort(void (*write_failure)(int status, const char *why)) { (void)write_failure; }
void cluster_set_timeout(double seconds) { (void)seconds; }
void cluster_share_noise(const NoiseCensus *census) { (void)census; }
long cluster_min(long value) { return value; }
void cluster_barrier(void) {}

int cluster_share(const RunSetup *run, const Measurement *m, size_t index, int status, RankTable *table,
                  char *why, size_t why_size)
{
    (void)run, (void)m, (void)index, (void)table, (void)why, (void)why_size;
    return status;
}

void free_rank_table(RankTable *table) { (void)table; }

void cluster_abort(int status)
{
    exit(status);
}

void cluster_finish(void) {}
