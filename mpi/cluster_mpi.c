/* clomp_mpi: the ranks of a hybrid run, over MPI (see cluster.h).
 *
 * Every collective is non-blocking and waited for by polling with a
 * deadline, so that a rank that died or stopped (a killed process, a hung
 * node) ends the run on the others with a one-line error instead of leaving
 * them blocked forever. The deadline is --mpi-timeout seconds plus 4 times
 * the work this rank did since the ranks last met: ranks doing the same work
 * drift apart by a fraction of it, never by 4 times all of it. */
#define _GNU_SOURCE
#include "cluster.h"

#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../cli/exit_status.h"
#include "../timing/clock.h"
#include "rank_view.h"

#define DEFAULT_TIMEOUT_SECONDS 60.0
/* Waiting rank: polls without pause this long (tight release from a
 * barrier), then sleeps between polls so as not to steal a core - except at
 * the barrier before a timed run, where a sleeping rank would start its run
 * up to a sleep later than the others: there it spins to the end. */
#define SPIN_SECONDS 0.01
#define POLL_SLEEP_NS 200000L

static int started, my_rank, ranks = 1, provided;
static RankInfo self;
static RankInfo *all;          /* rank 0 */
static double timeout = DEFAULT_TIMEOUT_SECONDS;
static double last_met;        /* when the ranks last met */
static void (*abort_writer)(int status, const char *why);

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    default:
        return "MPI_THREAD_MULTIPLE";
    }
}

/* This rank cannot go on and the others cannot know: say why, let rank 0
 * write its failure record, and end every rank. */
__attribute__((format(printf, 2, 3), noreturn)) static void end_all(int status, const char *fmt, ...)
{
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(ap);
    fflush(stdout);
    fprintf(stderr, "clomp: rank %d (%s): %s\n", my_rank, self.host, why);
    fflush(stderr);
    if (abort_writer != NULL) {
        void (*writer)(int, const char *) = abort_writer;
        abort_writer = NULL;
        writer(status, why);
    }
    MPI_Abort(MPI_COMM_WORLD, status);
    _exit(status);
}

static void check(int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error %d", rc);
    end_all(EXIT_RESOURCE, "MPI failed in %s: %s", what, text);
}

/* Waits for a collective with the deadline described above; `spin`: never sleeps. */
static void wait_for(MPI_Request *request, const char *what, int spin)
{
    double start = now_seconds();
    double limit = timeout + 4.0 * (start - last_met);
    for (;;) {
        int done = 0;
        check(MPI_Test(request, &done, MPI_STATUS_IGNORE), what);
        if (done)
            break;
        double waited = now_seconds() - start;
        if (waited > limit)
            end_all(EXIT_RESOURCE, "waited %.0f s for the other ranks at %s: a rank died or stopped responding "
                                   "(--mpi-timeout=%.0f); ending the run on every rank", waited, what, timeout);
        if (!spin && waited > SPIN_SECONDS) {
            struct timespec pause = {0, POLL_SLEEP_NS};
            nanosleep(&pause, NULL);
        }
    }
    last_met = now_seconds();
}

static void describe_self(void)
{
    cpu_set_t set;
    self.rank = my_rank;
    if (gethostname(self.host, sizeof self.host - 1) != 0)
        snprintf(self.host, sizeof self.host, "unknown");
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CLOMP_MAX_CPUS && c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                self.cpu_mask[c / 8] |= (unsigned char)(1u << (c % 8));
    cpu_list_text(self.cpu_mask, self.cpus, sizeof self.cpus, &self.cpu_count);
}

int cluster_start(int *argc, char ***argv, char *why, size_t why_size)
{
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS) {
        snprintf(why, why_size, "MPI_Init_thread failed (error %d)", rc);
        return EXIT_RESOURCE;
    }
    started = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    if (provided < MPI_THREAD_FUNNELED) {
        snprintf(why, why_size, "the MPI library provides only %s; clomp_mpi needs MPI_THREAD_FUNNELED (OpenMP "
                                "threads beside the thread that calls MPI)", level_name(provided));
        return EXIT_RESOURCE;
    }
    describe_self();
    last_met = now_seconds();
    if (my_rank == 0) {
        all = calloc((size_t)ranks, sizeof *all);
        if (all == NULL) {
            snprintf(why, why_size, "out of memory for the table of %d ranks", ranks);
            return EXIT_RESOURCE;
        }
    }
    MPI_Request request;
    check(MPI_Igather(&self, (int)sizeof self, MPI_BYTE, all, (int)sizeof self, MPI_BYTE, 0, MPI_COMM_WORLD,
                      &request), "the start-up exchange");
    wait_for(&request, "the start-up exchange of host names", 0);
    return 0;
}

int cluster_active(void) { return 1; }
int cluster_rank(void) { return my_rank; }
int cluster_size(void) { return ranks; }
const char *cluster_thread_level(void) { return level_name(provided); }
const RankInfo *cluster_self(void) { return &self; }
const RankInfo *cluster_ranks(void) { return all; }

void cluster_on_abort(void (*write_failure)(int status, const char *why))
{
    abort_writer = write_failure;
}

void cluster_set_timeout(double seconds)
{
    timeout = seconds;
}

void cluster_share_noise(const NoiseCensus *c)
{
    self.busy_judged = c->busy_judged;
    self.busy = c->busy_judged && c->busy;
    self.lost_fraction = NAN;
    for (int t = 0; c->busy_judged && t < c->threads; t++)
        if (isnan(self.lost_fraction) || c->thread[t].lost_fraction > self.lost_fraction)
            self.lost_fraction = c->thread[t].lost_fraction;
    snprintf(self.busy_reason, sizeof self.busy_reason, "%s", self.busy ? c->busy_reason : "");
    MPI_Request request;
    check(MPI_Igather(&self, (int)sizeof self, MPI_BYTE, all, (int)sizeof self, MPI_BYTE, 0, MPI_COMM_WORLD,
                      &request), "sharing the noise census verdicts");
    wait_for(&request, "sharing the noise census verdicts", 0);
}

long cluster_min(long value)
{
    long least = value;
    MPI_Request request;
    check(MPI_Iallreduce(&value, &least, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD, &request), "agreeing on the chunks");
    wait_for(&request, "agreeing on the chunk count", 0);
    return least;
}

void cluster_barrier(void)
{
    MPI_Request request;
    check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "the barrier before a timed run");
    wait_for(&request, "the barrier before a timed run", 1);
}

/* What each rank sends rank 0 after a timed run: its status and reason,
 * the measurement, then its timings (sizes fixed by the run: every rank
 * has the same rounds and chunk plan). */
typedef struct ShareHeader {
    int status;
    char why[512];
    Measurement m;
} ShareHeader;

static size_t share_bytes(const RunSetup *run)
{
    return sizeof(ShareHeader) + sizeof(double) * (size_t)(run->rounds * run->trials + 2 * run->rounds) +
           sizeof(long) * (size_t)run->trials;
}

/* The blob is bytes: every field is copied in and out with memcpy, never
 * read through a cast pointer. */
static void pack(const RunSetup *run, const Measurement *m, int status, const char *why, unsigned char *blob)
{
    ShareHeader h;
    memset(&h, 0, sizeof h);
    h.status = status;
    snprintf(h.why, sizeof h.why, "%s", status != 0 ? why : "");
    h.m = *m;
    unsigned char *at = blob;
    memcpy(at, &h, sizeof h);
    at += sizeof h;
    memcpy(at, m->chunk_seconds, sizeof(double) * (size_t)(run->rounds * m->chunks));
    at += sizeof(double) * (size_t)(run->rounds * run->trials);
    memcpy(at, m->round_seconds, sizeof(double) * (size_t)run->rounds);
    at += sizeof(double) * (size_t)run->rounds;
    memcpy(at, m->round_median_us, sizeof(double) * (size_t)run->rounds);
    at += sizeof(double) * (size_t)run->rounds;
    memcpy(at, m->chunk_end, sizeof(long) * (size_t)m->chunks);
}

/* Rank r's copy of measurement `index` in the table, its arrays the table's;
 * its header in *h. */
static int unpack(const RunSetup *run, const Measurement *mine, size_t index, const unsigned char *blob,
                  RankTable *t, int r, ShareHeader *h)
{
    Measurement *e = &t->results[(size_t)r * t->count + index];
    double *chunk_seconds = e->chunk_seconds, *round_seconds = e->round_seconds, *round_median = e->round_median_us;
    long *own = e->own_chunk_end;
    if (chunk_seconds == NULL) {
        chunk_seconds = calloc((size_t)(run->rounds * run->trials), sizeof *chunk_seconds);
        round_seconds = calloc((size_t)run->rounds, sizeof *round_seconds);
        round_median = calloc((size_t)run->rounds, sizeof *round_median);
        own = calloc((size_t)run->trials, sizeof *own);
        if (chunk_seconds == NULL || round_seconds == NULL || round_median == NULL || own == NULL) {
            free(chunk_seconds), free(round_seconds), free(round_median), free(own);
            return -1;
        }
    }
    const unsigned char *at = blob;
    memcpy(h, at, sizeof *h);
    at += sizeof *h;
    *e = h->m;
    e->schedule = mine->schedule;   /* the same table in every rank, not the same address */
    memcpy(chunk_seconds, at, sizeof(double) * (size_t)(run->rounds * run->trials));
    at += sizeof(double) * (size_t)(run->rounds * run->trials);
    memcpy(round_seconds, at, sizeof(double) * (size_t)run->rounds);
    at += sizeof(double) * (size_t)run->rounds;
    memcpy(round_median, at, sizeof(double) * (size_t)run->rounds);
    at += sizeof(double) * (size_t)run->rounds;
    memcpy(own, at, sizeof(long) * (size_t)run->trials);
    e->chunk_seconds = chunk_seconds;
    e->round_seconds = round_seconds;
    e->round_median_us = round_median;
    e->own_chunk_end = own;
    e->chunk_end = own;
    e->thread_marks = NULL;
    e->part_value_sum = e->part_residue = NULL;
    return 0;
}

static int bits_equal(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y;
}

typedef struct Verdict {
    int status;
    int rank;
    char why[700];
} Verdict;

/* Rank 0: the first failure on any rank, in rank order. */
static void judge(const RunSetup *run, const Measurement *mine, size_t index, const unsigned char *blobs,
                  RankTable *t, Verdict *v)
{
    size_t bytes = share_bytes(run);
    static ShareHeader header;
    const ShareHeader *h = &header;
    memset(v, 0, sizeof *v);
    for (int r = 0; r < ranks; r++) {
        if (unpack(run, mine, index, blobs + (size_t)r * bytes, t, r, &header) != 0)
            end_all(EXIT_RESOURCE, "out of memory for the measurements of %d ranks", ranks);
        if (v->status != 0)
            continue;
        if (h->status != 0) {
            v->status = h->status, v->rank = r;
            snprintf(v->why, sizeof v->why, "rank %d (%.64s): %.500s", r, all[r].host, h->why);
            continue;
        }
        ScheduleRole role = mine->schedule->role;
        const MeshChecksum *c = &t->results[(size_t)r * t->count + index].checksum, *c0 = &t->results[index].checksum;
        if ((role == ROLE_REFERENCE || role == ROLE_CHECKED) && r > 0 &&
            (!bits_equal(c->sum, c0->sum) || !bits_equal(c->residue, c0->residue))) {
            v->status = EXIT_VERIFY_FAILED, v->rank = r;
            snprintf(v->why, sizeof v->why, "rank %d (%s): %s checksum Sum=%.17g Residue=%.17g differs from rank "
                                            "0's (Sum=%.17g Residue=%.17g): the ranks did not compute the same mesh",
                     r, all[r].host, mine->schedule->name, c->sum, c->residue, c0->sum, c0->residue);
        }
    }
}

/* Rank 0: the gather's cost, for the JSON (docs/mpi.md: per rank count). */
static void note_gather(RankTable *t, size_t bytes, double seconds)
{
    if (t->gathers == 0 || seconds < t->gather_min_seconds)
        t->gather_min_seconds = seconds;
    t->gathers++;
    t->gather_total_seconds += seconds;
    t->gather_bytes_per_rank = bytes;
}

int cluster_share(const RunSetup *run, const Measurement *m, size_t index, int status, RankTable *t, char *why,
                  size_t why_size)
{
    size_t bytes = share_bytes(run);
    unsigned char *mine = calloc(1, bytes), *blobs = NULL;
    if (mine == NULL)
        end_all(EXIT_RESOURCE, "out of memory for sharing a measurement");
    pack(run, m, status, why, mine);
    if (my_rank == 0) {
        blobs = malloc(bytes * (size_t)ranks);
        if (t->results == NULL) {
            t->ranks = ranks;
            t->count = clomp_schedule_count;
            t->results = calloc((size_t)ranks * t->count, sizeof *t->results);
        }
        if (blobs == NULL || t->results == NULL)
            end_all(EXIT_RESOURCE, "out of memory for the measurements of %d ranks", ranks);
    }
    MPI_Request request;
    double gather_start = now_seconds();
    check(MPI_Igather(mine, (int)bytes, MPI_BYTE, blobs, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &request),
          "gathering a measurement");
    wait_for(&request, "gathering a measurement on rank 0", 0);
    Verdict v;
    memset(&v, 0, sizeof v);
    if (my_rank == 0 && blobs != NULL)
        judge(run, m, index, blobs, t, &v);
    check(MPI_Ibcast(&v, (int)sizeof v, MPI_BYTE, 0, MPI_COMM_WORLD, &request), "sharing the verdict");
    wait_for(&request, "sharing rank 0's verdict", 0);
    if (my_rank == 0)
        note_gather(t, bytes, now_seconds() - gather_start);
    free(mine);
    free(blobs);
    if (v.status != 0)
        snprintf(why, why_size, "%s", v.why);
    return v.status;
}

void free_rank_table(RankTable *t)
{
    for (size_t k = 0; t->results != NULL && k < (size_t)t->ranks * t->count; k++) {
        free(t->results[k].chunk_seconds);
        free(t->results[k].round_seconds);
        free(t->results[k].round_median_us);
        free(t->results[k].own_chunk_end);
    }
    free(t->results);
    t->results = NULL;
}

void cluster_abort(int status)
{
    fflush(stdout);
    fflush(stderr);
    if (started && ranks > 1)
        MPI_Abort(MPI_COMM_WORLD, status);
    if (started)
        MPI_Finalize();
    exit(status);
}

void cluster_finish(void)
{
    if (started)
        MPI_Finalize();
    started = 0;
}
