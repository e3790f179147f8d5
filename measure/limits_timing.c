/* The barriers and fork/joins of clomp --limits (limits.h), timed as EPCC
 * times a construct: `innerreps` back-to-back operations per repetition,
 * calibrated to the repetition time (EPCC's getinnerreps), ns per operation
 * the repetition's time over innerreps. Every repetition times all six in
 * turn, starting one further along each time, so that drift reaches them
 * alike; each reference is checked (kernels/ref_check.h) right after its
 * timed part, on the same team, every repetition. */
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "../cli/exit_status.h"
#include "../kernels/fault.h"
#include "../kernels/ref_check.h"
#include "../timing/clock.h"
#include "construct_overhead.h"
#include "limits.h"
#include "sequence.h"

/* EPCC's first innerreps (syncbench's). */
#define LIMITS_FIRST_INNERREPS 16L
/* Timings per count while calibrating; the fastest decides. */
#define LIMITS_CALIBRATION_TIMINGS 3

typedef struct TimingRun {
    int threads;
    RefBarrier *barrier[LIMIT_REF_BARRIERS];
    RefForkJoin *pool;
    RefCheck *check;
    long next_stamp;          /* stamps no check has used yet */
    LimitTimingId id;         /* calibrating: what */
    int team_ok;              /* every region had the whole team */
    int team_min, team_max;   /* OpenMP's fork/join: the teams seen */
    int preempted;            /* the last timed part: note_switches */
} TimingRun;

static volatile int region_sink;

/* The process's involuntary context switches so far (every thread); -1 unknown. */
static long involuntary_switches(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_nivcsw : -1;
}

/* Around the timed part, outside it: 1 when the process was preempted
 * while it ran (some thread switched out involuntarily), 0 when not, -1
 * unknown. */
static void note_switches(TimingRun *tr, long before, long after)
{
    tr->preempted = before < 0 || after < 0 ? -1 : after > before;
}

/* Stamps no check has used yet, enough for one check (kernels/ref_check.h). */
static long take_stamps(TimingRun *tr)
{
    long first = tr->next_stamp;
    tr->next_stamp += 2L * REF_CHECK_EPISODES;
    return first;
}

/* Inside a region: 1 when it has the whole team. A reference with a thread
 * missing would wait for it forever: the team is checked first, and the
 * run's record then says the team was smaller. */
static int whole_team(TimingRun *tr, int thread)
{
    if (omp_get_num_threads() == tr->threads)
        return 1;
    if (thread == 0)
        tr->team_ok = 0;
    return 0;
}

/* One timed repetition of a barrier: thread 0 reads the clock after an
 * OpenMP barrier that lines the team up and after its last barrier of the
 * `innerreps`; `check`: then the reference's check. Seconds. */
static double time_barrier(TimingRun *tr, LimitTimingId id, long innerreps, int check, int broken)
{
    double seconds = 0.0;
    RefBarrier *b = id < LIMIT_REF_BARRIERS ? tr->barrier[id] : NULL;
    long stamp = take_stamps(tr);
#pragma omp parallel num_threads(tr->threads)
    {
        int t = omp_get_thread_num();
        if (whole_team(tr, t)) {
            long before = t == 0 ? involuntary_switches() : 0;
#pragma omp barrier
            double start = t == 0 ? now_seconds() : 0.0;
            if (b == NULL) {
                for (long i = 0; i < innerreps; i++) {
#pragma omp barrier
                }
            } else {
                for (long i = 0; i < innerreps; i++)
                    b->kind->wait(b, t);
            }
            if (t == 0) {
                seconds = now_seconds() - start;
                note_switches(tr, before, involuntary_switches());
            }
            if (check && b != NULL)
                ref_check_barrier(b, tr->check, stamp, broken, t);
        }
    }
    return seconds;
}

/* The reference fork/join: thread 0 forks `innerreps` times, the others
 * are the pool; then (check) the pool checked in the same region. */
static double time_reference_forkjoin(TimingRun *tr, long innerreps, int check, int broken)
{
    double seconds = 0.0;
    RefForkJoin *p = tr->pool;
    ref_pool_restart(p);
    long stamp = take_stamps(tr) - p->episode;   /* the pool's stamps are this base + its episodes */
#pragma omp parallel num_threads(tr->threads)
    {
        int t = omp_get_thread_num();
        if (whole_team(tr, t)) {
#pragma omp barrier
            if (t == 0) {
                long before = involuntary_switches();
                double start = now_seconds();
                for (long i = 0; i < innerreps; i++)
                    ref_fork_join(p);
                seconds = now_seconds() - start;
                note_switches(tr, before, involuntary_switches());
                ref_pool_stop(p);
            } else {
                ref_pool_work(p, t);
            }
            if (check) {
#pragma omp barrier
                if (t == 0)
                    ref_pool_restart(p);
#pragma omp barrier
                ref_check_forkjoin(p, tr->check, stamp, broken, t);
            }
        }
    }
    return seconds;
}

/* OpenMP's fork/join, as the OMP Parallel probe times it: empty regions of
 * the team from serial code, the first thread storing one value. */
static double time_omp_forkjoin(TimingRun *tr, long innerreps)
{
    int least = INT_MAX, most = 0;
    long before = involuntary_switches();
    double start = now_seconds();
    for (long i = 0; i < innerreps; i++) {
#pragma omp parallel num_threads(tr->threads)
        {
            if (omp_get_thread_num() == 0) {
                int n = omp_get_num_threads();
                least = n < least ? n : least;
                most = n > most ? n : most;
                region_sink = 1;
            }
        }
    }
    double seconds = now_seconds() - start;
    note_switches(tr, before, involuntary_switches());
    tr->team_min = least < tr->team_min ? least : tr->team_min;
    tr->team_max = most > tr->team_max ? most : tr->team_max;
    return seconds;
}

static double time_one(TimingRun *tr, LimitTimingId id, long innerreps, int check, int broken)
{
    if (id == LIMIT_REF_FORKJOIN)
        return time_reference_forkjoin(tr, innerreps, check, broken);
    if (id == LIMIT_OMP_FORKJOIN)
        return time_omp_forkjoin(tr, innerreps);
    return time_barrier(tr, id, innerreps, check, broken);
}

static double fastest_of(long innerreps, void *context)
{
    TimingRun *tr = context;
    double fastest = time_one(tr, tr->id, innerreps, 0, 0);
    for (int k = 1; k < LIMITS_CALIBRATION_TIMINGS; k++) {
        double s = time_one(tr, tr->id, innerreps, 0, 0);
        fastest = s < fastest ? s : fastest;
    }
    return fastest;
}

static void name_timings(LimitsRecord *l)
{
    static const char *const keys[LIMIT_TIMINGS] = {"central", "dissemination", "tournament", "omp_barrier",
                                                    "reference_forkjoin", "omp_forkjoin"};
    for (int i = 0; i < LIMIT_TIMINGS; i++) {
        LimitTiming *t = &l->timing[i];
        t->key = keys[i];
        t->reference = i < LIMIT_REF_BARRIERS || i == LIMIT_REF_FORKJOIN;
        t->disturbed_reps = 0;
    }
    for (int i = 0; i < LIMIT_REF_BARRIERS; i++) {
        l->timing[i].name = ref_barrier_kinds[i]->name;
        l->timing[i].how = ref_barrier_kinds[i]->how;
    }
    l->timing[LIMIT_OMP_BARRIER].name = "OpenMP barrier";
    l->timing[LIMIT_OMP_BARRIER].how = "#pragma omp barrier in one region of the team, as OMP Barrier times it";
    l->timing[LIMIT_REF_FORKJOIN].name = "Reference fork/join";
    l->timing[LIMIT_REF_FORKJOIN].how =
        "a pool spinning on one flag the master sets, joined by one counter it waits on";
    l->timing[LIMIT_OMP_FORKJOIN].name = "OpenMP fork/join";
    l->timing[LIMIT_OMP_FORKJOIN].how = "an empty #pragma omp parallel from serial code, as OMP Parallel times it";
}

static int create_run(TimingRun *tr, int threads)
{
    *tr = (TimingRun){.threads = threads, .next_stamp = 1, .team_ok = 1, .team_min = INT_MAX};
    _Static_assert(LIMIT_REF_BARRIERS == 3, "the record's reference barriers are the table's");
    int ok = ref_barrier_kind_count == LIMIT_REF_BARRIERS;
    for (int i = 0; i < LIMIT_REF_BARRIERS && ok; i++)
        ok = (tr->barrier[i] = ref_barrier_kinds[i]->create(threads)) != NULL;
    tr->pool = ref_forkjoin_create(threads);
    tr->check = ref_check_create(threads);
    return ok && tr->pool != NULL && tr->check != NULL ? 0 : -1;
}

static void free_run(TimingRun *tr)
{
    for (int i = 0; i < LIMIT_REF_BARRIERS; i++)
        ref_barrier_free(tr->barrier[i]);
    ref_forkjoin_free(tr->pool);
    ref_check_free(tr->check);
}

/* The fault build's CLOMP_FAULT=limits-skip-round for timing `id`. */
static int broken(const LimitsRecord *l, LimitTimingId id)
{
    return l->timing[id].reference && LIMITS_SKIP_ROUND(l->timing[id].key);
}

/* Repetition r of every timing, in turn from timing r mod LIMIT_TIMINGS. */
static int run_repetition(TimingRun *tr, LimitsRecord *l, long r, long reps, double *rep_ns, char *why,
                          size_t why_size)
{
    for (int k = 0; k < LIMIT_TIMINGS; k++) {
        LimitTimingId id = (LimitTimingId)((r + k) % LIMIT_TIMINGS);
        LimitTiming *t = &l->timing[id];
        double seconds = time_one(tr, id, t->innerreps, t->reference, broken(l, id));
        if (!tr->team_ok)
            return 0;
        rep_ns[id * reps + r] = seconds * 1e9 / (double)t->innerreps;
        if (tr->preempted < 0)
            t->disturbed_reps = -1;
        else if (t->disturbed_reps >= 0)
            t->disturbed_reps += tr->preempted;
        if (!t->reference)
            continue;
        char problem[256];
        if (ref_check_verdict(tr->check, problem, sizeof problem) != 0) {
            snprintf(l->failure, sizeof l->failure, "%s, repetition %ld: %s", t->name, r + 1, problem);
            snprintf(why, why_size, "--limits: a reference failed its check: %s", l->failure);
            return EXIT_VERIFY_FAILED;
        }
        t->checked_reps++;
    }
    return 0;
}

int measure_limit_timings(const RunSetup *run, LimitsRecord *l, char *why, size_t why_size)
{
    long reps = run->limits.reps;
    TimingRun tr;
    double *rep_ns = malloc((size_t)(LIMIT_TIMINGS * reps) * sizeof *rep_ns);
    int status = create_run(&tr, l->threads) != 0 || rep_ns == NULL ? EXIT_RESOURCE : 0;
    name_timings(l);
    l->checked_episodes = REF_CHECK_EPISODES;
    clomp_openmp_running = 1;
    for (int id = 0; status == 0 && id < LIMIT_TIMINGS && tr.team_ok; id++) {
        tr.id = (LimitTimingId)id;
        l->timing[id].innerreps = construct_calibrate_innerreps(LIMITS_FIRST_INNERREPS, 1, run->limits.target_us,
                                                                fastest_of, &tr);
        l->timing[id].reps = reps;
    }
    for (long r = 0; status == 0 && r < reps && tr.team_ok; r++)
        status = run_repetition(&tr, l, r, reps, rep_ns, why, why_size);
    clomp_openmp_running = 0;
    if (status == EXIT_RESOURCE)
        snprintf(why, why_size, "out of memory for --limits' barriers at %d threads", l->threads);
    if (status == 0 && !tr.team_ok)
        snprintf(l->not_measured, sizeof l->not_measured, "the runtime gave a team smaller than %d threads",
                 l->threads);
    if (status == 0 && tr.team_ok && (tr.team_min != l->threads || tr.team_max != l->threads))
        snprintf(l->not_measured, sizeof l->not_measured, "OpenMP's fork/join had teams of %d..%d threads, not %d",
                 tr.team_min, tr.team_max, l->threads);
    if (status == 0 && l->not_measured[0] == '\0') {
        l->timing[LIMIT_OMP_FORKJOIN].team_min = tr.team_min;
        l->timing[LIMIT_OMP_FORKJOIN].team_max = tr.team_max;
        for (int id = 0; id < LIMIT_TIMINGS; id++)
            summarize_limit_timing(&l->timing[id], rep_ns + id * reps, reps);
        l->best_reference = -1;
        for (int id = 0; id < LIMIT_REF_BARRIERS; id++)
            if (!l->timing[id].invalid &&
                (l->best_reference < 0 || l->timing[id].ns.median < l->timing[l->best_reference].ns.median))
                l->best_reference = id;
        int busy = l->busy;
        if (l->best_reference >= 0)
            limit_multiple(&l->barrier_multiple, &l->timing[LIMIT_OMP_BARRIER], rep_ns + LIMIT_OMP_BARRIER * reps,
                           &l->timing[l->best_reference], rep_ns + l->best_reference * reps, reps, busy);
        else
            snprintf(l->barrier_multiple.not_a_result, sizeof l->barrier_multiple.not_a_result,
                     "no reference barrier is a result");
        limit_multiple(&l->forkjoin_multiple, &l->timing[LIMIT_OMP_FORKJOIN], rep_ns + LIMIT_OMP_FORKJOIN * reps,
                       &l->timing[LIMIT_REF_FORKJOIN], rep_ns + LIMIT_REF_FORKJOIN * reps, reps, busy);
    }
    free(rep_ns);
    free_run(&tr);
    return status;
}

void summarize_limit_timing(LimitTiming *t, const double *rep_ns, long reps)
{
    t->measured = reps > 0;
    t->ns = summarize_samples(rep_ns, reps, CLOMP_CI_LEVEL);
    double ratio = t->ns.mean / t->ns.median;
    t->invalid = !(ratio <= CLOMP_MEAN_MEDIAN_FACTOR && ratio >= 1.0 / CLOMP_MEAN_MEDIAN_FACTOR);
    if (t->invalid)
        snprintf(t->invalid_reason, sizeof t->invalid_reason,
                 "the mean over its repetitions, %.4g ns, is %.3gx their median %.4g, beyond the factor %.0f: a few "
                 "repetitions took most of the time, so neither figure describes it",
                 t->ns.mean, ratio, t->ns.median, CLOMP_MEAN_MEDIAN_FACTOR);
}

void limit_multiple(LimitDerived *d, const LimitTiming *omp, const double *omp_ns, const LimitTiming *ref,
                    const double *ref_ns, long reps, int busy)
{
    double *ratio = malloc((size_t)(reps > 0 ? reps : 1) * sizeof *ratio);
    d->not_a_result[0] = '\0';
    if (ratio == NULL || reps < 1) {
        snprintf(d->not_a_result, sizeof d->not_a_result, "not measured");
        free(ratio);
        return;
    }
    for (long r = 0; r < reps; r++)
        ratio[r] = omp_ns[r] / ref_ns[r];
    d->stats = summarize_samples(ratio, reps, CLOMP_CI_LEVEL);
    free(ratio);
    if (omp->invalid || ref->invalid)
        snprintf(d->not_a_result, sizeof d->not_a_result, "%s is not a result (see its line)",
                 omp->invalid ? omp->name : ref->name);
    else if (busy)
        snprintf(d->not_a_result, sizeof d->not_a_result, "%s", LIMITS_BUSY);
}
