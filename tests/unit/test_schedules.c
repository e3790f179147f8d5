/* Every schedule, at 1 to 4 threads and over awkward shapes, leaves every
 * zone value and residue bit-identical to the plain-array serial oracle;
 * Bestcase does all of its (fixed-deposit) work; the measurement sequence
 * warms a schedule up with the code it times. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "kernels/deposit.h"
#include "kernels/chunk_timer.h"
#include "kernels/schedule.h"
#include "measure/sequence.h"
#include "offload/device.h"
#include "oracle/oracle.h"
#include "tap.h"

#define SUBCYCLES 30

typedef struct Shape {
    long P, Z, F, zoneSize;
    const char *why;
} Shape;

static const Shape shapes[] = {
    {8, 10, 1, 32, "numParts divisible by the threads"},
    {7, 10, 1, 32, "numParts not divisible by 2, 3 or 4"},
    {3, 6, 1, 48, "numParts below the thread count"},
    {64, 1, 100, 32, "zonesPerPart 1, flopScale 100"},
    {5, 4, 3, 40, "flopScale 3"},
    {1, 9, 1, 32, "a single part"},
};

/* Zones and residues that differ from the oracle, or update counts that are
 * not one per subcycle (part 0's is reset by calc_deposit). */
static long differences(const Problem *pb, const Oracle *o, int bestcase, long subcycles)
{
    long diff = 0;
    for (long p = 0; p < o->P; p++) {
        const Part *part = pb->mesh.partArray[p];
        long z = 0;
        for (const Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone, z++)
            diff += !same_bits(zone->value, o->values[p * o->Z + z]);
        diff += !same_bits(part->residue, o->residue[p]);
        /* Bestcase ends with its own calc_deposit() calls, which leave part 0 at 0. */
        long expected_count = p != 0 ? subcycles + 1 : bestcase ? 0 : 1;
        diff += part->update_count != expected_count;
    }
    return diff;
}

static void run_case(const Schedule *s, const Shape *shape, int threads, int outer, int inner)
{
    Problem pb = {0};
    Oracle o;
    MeshShape ms = {shape->P, shape->Z, shape->zoneSize, shape->F, ZONE_LAYOUT_CLOMP12};
    int bestcase = s->role == ROLE_BESTCASE;

    omp_set_num_threads(threads);
    build_mesh(&pb.mesh, &ms, threads, NULL, NULL);
    pb.numThreads = threads;
    pb.delay_length = 10;
    pb.nestedOuter = outer;
    pb.nestedInner = inner;
    calibrate_deposit(&pb);
    oracle_init(&o, shape->P, shape->Z, shape->F);
    if (bestcase)
        oracle_run_bestcase(&o, SUBCYCLES);
    else
        oracle_run_serial(&o, SUBCYCLES);

    TeamObservation seen;
    memset(&seen, 0, sizeof seen);
    reinitialize_parts(&pb);
    s->run(&pb, SUBCYCLES, NULL, &seen);
    long diff = differences(&pb, &o, bestcase, SUBCYCLES);
    if (s->role == ROLE_CHECKED || s->role == ROLE_REFERENCE)
        diff += pb.deposit.order_violations;

    if (s->uses_threads && !seen.nested)
        ok(diff == 0 && seen.threads == threads, "%s at %d threads, %s: bit-identical, team of %d", s->name,
           threads, shape->why, seen.threads);
    else if (seen.nested)
        ok(diff == 0 && seen.threads == outer && seen.inner_max == (shape->P >= outer ? inner : seen.inner_max),
           "%s %dx%d, %s: bit-identical, outer team %d, inner up to %d", s->name, outer, inner, shape->why,
           seen.threads, seen.inner_max);
    else
        ok(diff == 0, "%s, %s: bit-identical to the oracle", s->name, shape->why);
    if (diff != 0)
        printf("# %ld differences\n", diff);
    oracle_free(&o);
    free_mesh(&pb.mesh);
}

/* Chunked runs: at the end of each chunk the verifier sees exactly the
 * oracle's state after the chunk's cumulative subcycle count, every part is
 * checked exactly once, and by the thread that owns it under the schedule
 * (so that checking moves no data between caches). */
typedef struct ChunkWatch {
    Problem *pb;
    Oracle *o;
    const long *ends;
    long calls, bad_states;
    const int *owner;     /* per part: the thread expected to check it, or NULL (not asserted) */
    long *checks;         /* per part: times checked in the current chunk */
    int *checker;         /* per part: the thread that checked it */
    long coverage_errors, misplaced;
} ChunkWatch;

static void watch_parts(void *context, long chunk, long first, long last)
{
    ChunkWatch *w = context;
    (void)chunk;
    for (long p = first; p <= last; p++) {
#pragma omp atomic
        w->checks[p]++;
        w->checker[p] = omp_get_thread_num();
    }
}

static void watch_conclude(void *context, long chunk)
{
    ChunkWatch *w = context;
    oracle_run_serial(w->o, w->ends[chunk]);
    w->bad_states += chunk != w->calls || differences(w->pb, w->o, 0, w->ends[chunk]) != 0;
    for (long p = 0; p < w->o->P; p++) {
        w->coverage_errors += w->checks[p] != 1;
        w->misplaced += w->owner != NULL && w->checker[p] != w->owner[p];
        w->checks[p] = 0;
    }
    w->calls++;
}

/* Who owns each part: the thread schedule(static) gives it (the OpenMP
 * specification makes two such loops of the same count and team size
 * assign alike), or CLOMP 1.2's manual slices (round to nearest). */
static void static_owners(long n, int threads, int *owner)
{
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long p = 0; p < n; p++)
        owner[p] = omp_get_thread_num();
}

static void slice_owners(long n, int threads, int *owner)
{
    double per_thread = (double)n / threads < 1.0 ? 1.0 : (double)n / threads;
    for (long p = 0; p < n; p++)
        owner[p] = -1;
    for (int t = 0; t < threads; t++)
        for (long p = (long)nearbyint(t * per_thread); p <= (long)nearbyint((t + 1) * per_thread) - 1 && p < n; p++)
            owner[p] = t;
}

#define CHUNKED_SUBCYCLES 110

static void run_chunked_case(const Schedule *s, int threads)
{
    /* Uneven chunks of whole iterations (1, 3, 1, 3, 3), as remainders make them. */
    static const long ends[] = {10, 40, 50, 80, CHUNKED_SUBCYCLES};
    const long count = sizeof ends / sizeof ends[0];
    double seconds[sizeof ends / sizeof ends[0]];
    Problem pb = {0};
    Oracle o;
    MeshShape ms = {7, 10, 32, 1, ZONE_LAYOUT_CLOMP12};
    int owner[7], checker[7];
    long checks[7] = {0};

    omp_set_num_threads(threads);
    build_mesh(&pb.mesh, &ms, threads, NULL, NULL);
    pb.numThreads = threads;
    pb.delay_length = 10;
    pb.nestedOuter = threads > 1 ? 2 : 1;
    pb.nestedInner = threads > 1 ? threads / 2 : 1;
    calibrate_deposit(&pb);
    oracle_init(&o, ms.numParts, ms.zonesPerPart, ms.flopScale);
    const int *expected_owner = NULL;
    if (strcmp(s->key, "manual") == 0) {
        slice_owners(ms.numParts, threads, owner);
        expected_owner = owner;
    } else if (strcmp(s->key, "static_1") == 0) {
        for (long p = 0; p < ms.numParts; p++)   /* schedule(static, 1): round robin, one part at a time */
            owner[p] = (int)(p % threads);
        expected_owner = owner;
    } else if (s->role == ROLE_CHECKED && strcmp(s->key, "nested") != 0) {
        /* Static OMP's owners; every other loop or tasking schedule has
         * other owners or none, and is checked under the static assignment. */
        static_owners(ms.numParts, threads, owner);
        expected_owner = owner;
    } else if (s->role == ROLE_REFERENCE) {
        memset(owner, 0, sizeof owner);
        expected_owner = owner;
    }
    ChunkWatch watch = {&pb, &o, ends, 0, 0, expected_owner, checks, checker, 0, 0};
    ChunkVerifier verifier = {watch_parts, watch_conclude, &watch};
    ChunkTimer timer = {count, ends, seconds, 0.0, &verifier, NULL, NULL};
    for (long c = 0; c < count; c++)
        seconds[c] = -1.0;

    reinitialize_parts(&pb);
    s->run(&pb, CHUNKED_SUBCYCLES, &timer, NULL);
    long untimed = 0;
    for (long c = 0; c < count; c++)
        untimed += !(seconds[c] >= 0.0);
    ok(watch.calls == count && watch.bad_states == 0 && untimed == 0,
       "%s at %d threads in %ld uneven chunks: each chunk timed and verified against the oracle at its end "
       "(%ld of %ld checks, %ld wrong states)", s->name, threads, count, watch.calls, count, watch.bad_states);
    ok(watch.coverage_errors == 0, "%s at %d threads: every part is checked exactly once per chunk", s->name,
       threads);
    if (expected_owner != NULL)
        ok(watch.misplaced == 0, "%s at %d threads: every part is checked by the thread that owns it under the "
                                 "schedule (%ld checked elsewhere)", s->name, threads, watch.misplaced);
    oracle_free(&o);
    free_mesh(&pb.mesh);
}

/* Probes and Bestcase have nothing to verify between chunks, but must time
 * every chunk. */
static void run_chunked_probe(const Schedule *s, int threads)
{
    static const long ends[] = {10, 20, SUBCYCLES};   /* whole iterations */
    const long count = s->chunked ? (long)(sizeof ends / sizeof ends[0]) : 1;
    long whole[] = {SUBCYCLES};
    double seconds[sizeof ends / sizeof ends[0]] = {-1.0, -1.0, -1.0};
    Problem pb = {0};
    MeshShape ms = {7, 10, 32, 1, ZONE_LAYOUT_CLOMP12};

    omp_set_num_threads(threads);
    build_mesh(&pb.mesh, &ms, threads, NULL, NULL);
    pb.numThreads = threads;
    pb.delay_length = 10;
    calibrate_deposit(&pb);
    double marks[4 * sizeof ends / sizeof ends[0]];   /* up to 3 threads x 3 chunks, for Bestcase */
    ChunkTimer timer = {count, s->chunked ? ends : whole, seconds, 0.0, NULL, marks, NULL};
    reinitialize_parts(&pb);
    s->run(&pb, SUBCYCLES, &timer, NULL);
    long untimed = 0;
    for (long c = 0; c < count; c++)
        untimed += !(seconds[c] >= 0.0);
    ok(untimed == 0, "%s at %d threads times each of its %ld chunk%s", s->name, threads, count,
       count == 1 ? "" : "s");
    free_mesh(&pb.mesh);
}

/* The warm-up runs the very code that is timed (issue 23, item 9). A
 * schedule's run() with `seen` NULL is the code it times (schedule.h); with
 * `seen` non-NULL it may run an observing copy. A stand-in schedule logs
 * each call's path - O: observing, T: timed code - and the sequence's
 * before_timed hook logs '|' where the clock is about to start: the call
 * right before every '|' must be a T (chunk 0 is then not the timed code's
 * first run), and the team must still have been observed in every round. */
static char call_log[64];
static size_t call_count;

static void log_call(char c)
{
    if (call_count + 1 < sizeof call_log)
        call_log[call_count++] = c;
}

static void logged_run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)subcycles;
    if (seen != NULL) {
        seen->threads = pb->numThreads;
        log_call('O');
        return;
    }
    log_call('T');
    for (long c = 0; timer != NULL && c < timer->count; c++)
        timer->seconds[c] = 1e-6 * (double)(c + 1);
}

static void log_timed_start(void *context, const Measurement *m)
{
    (void)context;
    (void)m;
    log_call('|');
}

static void check_warm_up_runs_timed_code(void)
{
    static const char *const no_pseudocode[] = {NULL};
    const Schedule logged = {"Logged", "logged", ROLE_BESTCASE, 1, 1, no_pseudocode, logged_run, NULL, 0, 0, 0, 0};
    long ends[] = {10, 20};
    MeshShape ms = {4, 2, 32, 1, ZONE_LAYOUT_CLOMP12};
    Problem pb = {0};
    build_mesh(&pb.mesh, &ms, 1, NULL, NULL);
    pb.numThreads = 2;
    calibrate_deposit(&pb);
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.numThreads = 2;
    run.numParts = 4;
    run.iterations = 2;
    run.subcycles = 20;
    run.trials = 2;
    run.chunk_end = ends;
    run.rounds = 2;
    Measurement m;
    memset(&m, 0, sizeof m);
    m.schedule = &logged;
    m.selected = 1;
    SequenceHooks hooks = {.failures = stderr, .before_timed = log_timed_start};
    char why[256] = "";
    call_count = 0;
    int prepared = prepare_measurements(&run, &m, 1) == 0;
    int status = prepared ? run_measurements(&pb, &run, &m, 1, &hooks, why, sizeof why) : -1;
    call_log[call_count] = '\0';
    long cold = 0, unobserved = 0, starts = 0;
    for (size_t i = 0, since = 0; i < call_count; i++)
        if (call_log[i] == '|') {
            starts++;
            cold += i == 0 || call_log[i - 1] != 'T';
            unobserved += memchr(call_log + since, 'O', i - since) == NULL;
            since = i + 1;
        }
    ok(status == 0 && starts == 2 && cold == 0, "the warm-up runs the timed code right before each timed run: "
       "calls %s (O observing, T timed code, | clock starts), %ld of %ld timed runs start cold", call_log, cold,
       starts);
    ok(status == 0 && unobserved == 0 && m.team.threads == 2,
       "the team is still observed before every timed run (team of %d)", m.team.threads);
    if (prepared)
        free_measurements(&m, 1);
    free_mesh(&pb.mesh);
}

/* The table itself: what --schedules, the reports and the tests rely on. */
static void check_table(void)
{
    long bad_names = 0, bad_keys = 0, hidden_parameters = 0, misplaced_optional = 0, optional_unchecked = 0;
    int seen_optional = 0;
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        const Schedule *s = clomp_schedules[i];
        bad_names += strlen(s->name) == 0 || strlen(s->name) > 13 || find_schedule(s->name) != s;
        bad_keys += strlen(s->key) == 0 || strpbrk(s->key, ", \t") != NULL || find_schedule(s->key) != s;
        for (const char *c = s->key; *c != '\0'; c++)
            bad_keys += *c >= 'A' && *c <= 'Z';
        if (s->parameter_kind != NULL) {
            char shown[32];
            snprintf(shown, sizeof shown, ",%ld", s->parameter);
            hidden_parameters += strstr(s->name, shown) == NULL || s->parameter < 1;
        }
        misplaced_optional += seen_optional && !s->optional;
        seen_optional |= s->optional;
        /* The one exception: an offload build's Dev Bestcase, the device's own bestcase (docs/offload.md). */
        optional_unchecked += s->optional && s->role != ROLE_CHECKED &&
                              !(s->role == ROLE_BESTCASE && strcmp(s->key, "offload_bestcase") == 0);
    }
    ok(bad_names == 0, "every report name is 1..13 characters and finds its own entry (%ld do not)", bad_names);
    ok(bad_keys == 0, "every key is lower case without commas or spaces and finds its own entry (%ld do not)",
       bad_keys);
    ok(hidden_parameters == 0, "every schedule parameter (chunk size, grainsize) is shown in the report name as "
                               "',N' (%ld are not)", hidden_parameters);
    ok(misplaced_optional == 0, "the optional entries come after every default one, so the default columns keep "
                                "their places");
    ok(optional_unchecked == 0, "every optional entry is a checked schedule, verified bit for bit (or Dev Bestcase)");
    ok(find_schedule("Static OMP") == find_schedule("static") && find_schedule("static") != NULL &&
           find_schedule("Static") == NULL,
       "find_schedule takes the report name or the key, nothing else");
}

int main(void)
{
    static const int nested_shapes[][2] = {{1, 1}, {1, 3}, {2, 1}, {2, 2}, {3, 1}, {4, 1}, {2, 3}};
    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    char why[256];
    if (offload_open(-1, why, sizeof why) != 0) {   /* offload builds: Offload OMP needs its device */
        printf("Bail out! %s\n", why);
        return 255;
    }

    check_table();
    check_warm_up_runs_timed_code();

    for (size_t i = 0; i < clomp_schedule_count; i++) {
        const Schedule *s = clomp_schedules[i];
        if (s->role == ROLE_PROBE)
            continue;
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            if (!s->uses_threads) {
                run_case(s, &shapes[k], 1, 1, 1);
            } else if (strcmp(s->name, "Nested OMP") == 0) {
                for (size_t n = 0; n < sizeof nested_shapes / sizeof nested_shapes[0]; n++)
                    run_case(s, &shapes[k], nested_shapes[n][0] * nested_shapes[n][1], nested_shapes[n][0],
                             nested_shapes[n][1]);
            } else {
                for (int threads = 1; threads <= 4; threads++)
                    run_case(s, &shapes[k], threads, 1, 1);
            }
        }
    }
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        const Schedule *s = clomp_schedules[i];
        for (int threads = 1; threads <= 3; threads++) {
            if (s->role == ROLE_CHECKED || s->role == ROLE_REFERENCE)
                run_chunked_case(s, threads);
            else
                run_chunked_probe(s, threads);
            if (!s->uses_threads)
                break;
        }
    }
    return done_testing();
}
