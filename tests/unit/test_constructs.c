/* The construct table's arithmetic and its region log: EPCC's overhead per
 * instance against hand-computed cases, the innerreps calibration steps, the
 * --construct-* options' refusals, and what a construct's regions record at
 * the first and the second level (the OpenMP standard's answers). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/construct_options.h"
#include "kernels/construct.h"
#include "measure/construct_overhead.h"
#include "offload/device.h"
#include "numa/cpu_classes.h"
#include "tap.h"

static void overhead_arithmetic(void)
{
    /* Three repetitions of 100 instances: tests of 1.2, 1.3 and 1.1 ms
     * against references of 1.0, 1.0 and 1.05 ms leave 0.2, 0.3 and 0.05 ms
     * over 100 instances: 2, 3 and 0.5 us each. */
    const double test[] = {1.2e-3, 1.3e-3, 1.1e-3}, reference[] = {1.0e-3, 1.0e-3, 1.05e-3};
    double us[3];
    construct_overheads(test, reference, 3, 100, us);
    ok(fabs(us[0] - 2.0) < 1e-9 && fabs(us[1] - 3.0) < 1e-9 && fabs(us[2] - 0.5) < 1e-9,
       "(test - reference) / innerreps: 1.2 ms vs 1.0 ms over 100 instances is 2 us (got %g, %g, %g)", us[0], us[1],
       us[2]);
    /* A test faster than its reference is a negative overhead, kept as measured (noise, not clipped). */
    const double fast[] = {0.9e-3}, slow[] = {1.0e-3};
    construct_overheads(fast, slow, 1, 50, us);
    ok(fabs(us[0] + 2.0) < 1e-9, "a test 0.1 ms under its reference over 50 instances is -2 us (got %g)", us[0]);

    ok(fabs(construct_ratio(26.0, 3.25) - 8.0) < 1e-12, "level 2 at 26 us over level 1 at 3.25 us is a ratio of 8");
    ok(isnan(construct_ratio(2.0, 0.0)) && isnan(construct_ratio(2.0, -0.1)) && isnan(construct_ratio(-1.0, 2.0)) &&
           isnan(construct_ratio(NAN, 1.0)),
       "no ratio when either overhead is zero, negative or missing");

    ok(construct_round_innerreps(10, 4) == 12 && construct_round_innerreps(12, 4) == 12 &&
           construct_round_innerreps(7, 1) == 7,
       "innerreps rounds up to a multiple of the team (CRITICAL, LOCK and ATOMIC split them evenly)");
}

/* A test whose time is linear in its instances; it notes every count tried. */
typedef struct LinearTest {
    double seconds_each;
    long tried[64];
    int count;
} LinearTest;

static double linear_seconds(long innerreps, void *context)
{
    LinearTest *t = context;
    if (t->count < 64)
        t->tried[t->count++] = innerreps;
    return (double)innerreps * t->seconds_each;
}

/* EPCC 4.0's getinnerreps (common.c), written out plainly against a test of
 * `seconds_each` per instance: from 10, time, double, until a test lasted the target. */
static long epcc_getinnerreps(double seconds_each, double target_us)
{
    long innerreps = 10;
    double time_us = 0.0;
    while (time_us < target_us) {
        time_us = (double)innerreps * seconds_each * 1e6;
        innerreps *= 2;
    }
    return innerreps;
}

static void calibration(void)
{
    /* 0.1 us (a syncbench delay), 0.37 us, 3 us, 50 us and 2 ms (a loop) per instance. */
    const double each[] = {0.1e-6, 0.37e-6, 3e-6, 50e-6, 2e-3};
    int same = 1;
    char seen[256] = "";
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
        LinearTest t = {each[i], {0}, 0};
        long mine = construct_calibrate_innerreps(10, 1, 1000.0, linear_seconds, &t);
        long epcc = epcc_getinnerreps(each[i], 1000.0);
        same = same && mine == epcc;
        snprintf(seen + strlen(seen), sizeof seen - strlen(seen), " %g us: %ld vs %ld;", each[i] * 1e6, mine, epcc);
    }
    ok(same, "the calibration ends where EPCC's getinnerreps does, doubled once past the count that reached "
             "the target (clomp vs EPCC:%s)", seen);

    /* Rounded to a multiple of 2 threads x 64 (the task trees): every count timed is one, each
     * timed once, and from 640 on they are EPCC's own (10 x 2^k): at 0.15 us an instance, 128 (10,
     * 20, 40, 80 rounded), 256, 384, 640, 1280, ... 10240 (1536 us, the first to reach 1000 us), then
     * timed at 20480, as EPCC's getinnerreps. */
    LinearTest t = {0.15e-6, {0}, 0};
    long trees = construct_calibrate_innerreps(10, 128, 1000.0, linear_seconds, &t);
    const long want[] = {128, 256, 384, 640, 1280, 2560, 5120, 10240};
    int as_wanted = t.count == 8;
    for (int k = 0; k < t.count && k < 8; k++)
        as_wanted = as_wanted && t.tried[k] == want[k];
    ok(trees == 20480 && trees == epcc_getinnerreps(0.15e-6, 1000.0) && as_wanted,
       "rounded to 128: timed at 128, 256, 384, 640, ... 10240 (%d counts, the last %ld), then 20480 as EPCC (%ld)",
       t.count, t.count > 0 ? t.tried[t.count - 1] : -1L, trees);

    /* A clock that never advances: the doubling stops at the cap, with nothing reached to double. */
    LinearTest frozen = {0.0, {0}, 0};
    long capped = construct_calibrate_innerreps(1, 1, 1000.0, linear_seconds, &frozen);
    ok(capped == 1L << 34, "a clock that never advances ends the calibration at the cap, 2^34 (%ld)", capped);
}

static void options(void)
{
    struct {
        const char *arg;
        int status;
    } cases[] = {
        {"--constructs", 1},           {"--constructs=parallel,barrier", 1}, {"--constructs=", 2},
        {"--construct-reps=0", 2},     {"--construct-reps=3", 1},           {"--construct-reps=2.5", 2},
        {"--construct-delay=-1", 2},   {"--construct-delay=0.5", 1},        {"--construct-delay=0", 2},
        {"--construct-time=1e3", 2},   {"--construct-chunks=1,8,64", 1},    {"--construct-chunks=0", 2},
        {"--construct-chunks=4,", 2},  {"--construct-loop-delay=15", 1},    {"--schedules=static", 0},
        {"--construct-reps=100001", 2},
        {"--construct-sizes=1,3,59049", 1}, {"--construct-sizes=2", 2}, {"--construct-sizes=177147", 2},
        {"--construct-sizes=", 2},          {"--construct-sizes=9,", 2}, {"--construct-sizes=-3", 2},
        {"--construct-sizes=99999999999999999999999", 2},
        {"--construct-iters=1024", 1},      {"--construct-iters=0", 2},  {"--construct-iters=65537", 2},
        {"--construct-iters=1.5", 2},
        {"--construct-delay-length=153", 1}, {"--construct-delay-length=0", 2}, {"--construct-delay-length=1.5", 2},
        {"--construct-loop-delay-length=100000000", 1}, {"--construct-loop-delay-length=100000001", 2},
        {"--construct-delay-length=", 2},
        /* Far beyond a long: refused, never converted (make fuzz found the conversion, UBSan's error). */
        {"--construct-reps=055555555555555555555555555555555", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ConstructOptions c;
        char error[160] = "";
        default_construct_options(&c);
        int status = parse_construct_option(cases[i].arg, &c, error, sizeof error);
        ok(status == cases[i].status && (status != 2 || (error[0] != '\0' && strchr(error, '\n') == NULL)),
           "%s: %s%s", cases[i].arg, status == 1 ? "taken" : status == 0 ? "not a construct option" : "refused: ",
           status == 2 ? error : "");
    }
    ConstructOptions c;
    char error[160];
    /* A delay is a time or a length: the second of the two is refused, in either order. */
    default_construct_options(&c);
    int first = parse_construct_option("--construct-delay-length=153", &c, error, sizeof error);
    int second = parse_construct_option("--construct-delay=0.1", &c, error, sizeof error);
    ok(first == 1 && c.sync_delay_length == 153 && second == 2 && strstr(error, "not both") != NULL,
       "--construct-delay-length=153 is 153 additions, and a --construct-delay after it is refused (%s)", error);
    default_construct_options(&c);
    first = parse_construct_option("--construct-loop-delay=0.1", &c, error, sizeof error);
    second = parse_construct_option("--construct-loop-delay-length=153", &c, error, sizeof error);
    ok(first == 1 && second == 2 && c.loop_delay_length == 0 && strstr(error, "not both") != NULL,
       "a --construct-loop-delay-length after --construct-loop-delay is refused, the length left unset (%s)", error);
    default_construct_options(&c);
    parse_construct_option("--construct-chunks=1,8,64", &c, error, sizeof error);
    ok(c.chunk_count == 3 && c.chunks[0] == 1 && c.chunks[1] == 8 && c.chunks[2] == 64,
       "--construct-chunks=1,8,64 is the chunks 1, 8 and 64");
    /* EPCC 4.0's arraybench sizes, written out: 3^0 .. 3^10. */
    static const long epcc[] = {1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683, 59049};
    default_construct_options(&c);
    int same = c.size_count == 11;
    for (int i = 0; same && i < 11; i++)
        same = c.sizes[i] == epcc[i];
    ok(same && !c.sizes_given, "the array sizes default to EPCC's 1, 3, 9, ... 59049 (%d sizes)", c.size_count);
    parse_construct_option("--construct-sizes=243,1", &c, error, sizeof error);
    ok(c.size_count == 2 && c.sizes[0] == 243 && c.sizes[1] == 1 && c.sizes_given,
       "--construct-sizes=243,1 is the sizes 243 and 1, in that order");
}

/* Every row's check passes on its own body, at the first level and in
 * each outer thread's inner team (the fault build shows the checks fail on
 * bodies without their construct's effect: tests/constructs.t). */
static void checks_pass(void)
{
    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    int checked = 0;
    char failed[256] = "";
    for (size_t i = 0; i < clomp_construct_count; i++) {
        const Construct *c = clomp_constructs[i];
        if (c->check == NULL || c->not_provided != NULL)
            continue;
        ConstructWork w = {2, 10, 0, c->takes_chunk == CONSTRUCT_SIZE ? 27 : c->takes_chunk ? 2 : 0, 4, NULL, NULL};
        char why[128] = "";
        if (c->check(&w, why, sizeof why) != 0)
            snprintf(failed, sizeof failed, "%s at level 1: %s", c->key, why);
        int nested_failed = 0;
        /* A target probe runs from the initial thread only (measure/constructs.c);
         * libomp 14's host plugin asserts on target teams opened inside a parallel region. */
        if (c->kind == CONSTRUCT_TARGET) {
            checked++;
            continue;
        }
#pragma omp parallel num_threads(2) reduction(| : nested_failed)
#pragma omp critical
        {
            char mine[128];
            nested_failed = c->check(&w, mine, sizeof mine) != 0;
        }
        if (nested_failed)
            snprintf(failed, sizeof failed, "%s at level 2", c->key);
        checked++;
    }
    ok(failed[0] == '\0' && checked >= 14, "every row's check (%d rows) passes on its own body at level 1 and 2%s%s",
       checked, failed[0] ? ": " : "", failed);
    ok(find_construct("LOCK_CONTENDED") == find_construct("lock"), "EPCC 4.0's LOCK_CONTENDED is the LOCK/UNLOCK row");
}

/* What the first thread of every region recorded, at the first level
 * (called by the initial thread) and the second (by each outer thread). */
static void region_log(void)
{
    const Construct *parallel = find_construct("parallel"), *barrier = find_construct("BARRIER");
    ok(parallel != NULL && barrier != NULL && find_construct("nonsense") == NULL,
       "constructs are found by key and by EPCC name, and nothing else");
    if (parallel == NULL || barrier == NULL)
        return;
    omp_set_dynamic(0);
    omp_set_max_active_levels(2);
    RegionLog log = {0};
    ConstructWork w = {2, 10, 5, 0, 1, &log, NULL};
    parallel->test(&w);
    ok(log.regions == 5 && log.threads_min == 2 && log.threads_max == 2 && log.level_min == 1 && log.level_max == 1 &&
           log.active_max == 1,
       "PARALLEL's 5 instances at level 1: 5 regions of 2 threads at level 1 (got %ld of %d..%d at %d)",
       log.regions, log.threads_min, log.threads_max, log.level_max);
    RegionLog reference_log = {0};
    w.log = &reference_log;
    parallel->reference(&w);
    ok(reference_log.regions == 0, "its reference runs the delays in no region");

    RegionLog nested[2] = {{0}, {0}};
#pragma omp parallel num_threads(2)
    {
        ConstructWork inner = {2, 10, 3, 0, 1, &nested[omp_get_thread_num()], NULL};
        barrier->test(&inner);
    }
    int right = 1;
    for (int k = 0; k < 2; k++)
        right &= nested[k].regions == 1 && nested[k].level_max == 2 && nested[k].threads_min == 2 &&
                 nested[k].ancestor_min == k && nested[k].ancestor_max == k && nested[k].active_max == 2;
    ok(right, "BARRIER called by each of 2 outer threads: one region of 2 threads at level 2, active level 2, "
              "ancestor the outer thread");
}

/* The resolution rule (issue 35): which measured level is the construct's
 * cost and which is "unresolved", with the first reason that applies. */
static void resolution(void)
{
    /* 20 repetitions whose overheads are 2.0 .. 2.19 us: resolved, well above 0. */
    double v[20], around0[20], below0[20];
    for (int i = 0; i < 20; i++) {
        v[i] = 2.0 + 0.01 * i;
        around0[i] = -0.1 + 0.01 * i;
        below0[i] = -25.0 + 0.01 * i;   /* DYNAMIC 64 at -25 us (issue 35 item 7) */
    }
    SampleStats good = summarize_samples(v, 20, 0.95), zero = summarize_samples(around0, 20, 0.95);
    SampleStats negative = summarize_samples(below0, 20, 0.95);
    SampleStats few = summarize_samples(v, 3, 0.95);
    char why[320];
    ConstructEvidence e = {CONSTRUCT_SYNC, 640, &good, 20, 0, NULL, NULL, -1};
    ok(!construct_unresolved(&e, why, sizeof why), "640 instances, 20 quiet repetitions, an interval above 0: resolved");
    e.innerreps = 10;   /* the ATOMIC: 10 atomics filled the whole target time */
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "innerreps 10, below 32") != NULL,
       "a syncbench test that stopped at innerreps 10 is unresolved: %s", why);
    e.kind = CONSTRUCT_LOOP;
    e.innerreps = 1;
    ok(!construct_unresolved(&e, why, sizeof why), "a schedbench loop (ms long) at innerreps 1 is not, by that rule");
    e = (ConstructEvidence){CONSTRUCT_SYNC, 640, &good, 20, 11, NULL, NULL, -1};
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "11 of 20 repetitions preempted") != NULL,
       "more than half the repetitions preempted: unresolved (%s)", why);
    e.disturbed_reps = 10;
    ok(!construct_unresolved(&e, why, sizeof why), "half of them, the median is still a quiet one: resolved");
    e.disturbed_reps = -1;
    ok(!construct_unresolved(&e, why, sizeof why), "preemptions unknown: that rule says nothing");
    e.overhead = &few;
    e.reps = 3;
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "no 95% interval from 3 repetitions") != NULL,
       "3 repetitions give no interval: unresolved (%s)", why);
    e.overhead = &zero;
    e.reps = 20;
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "contains 0") != NULL,
       "an interval containing 0 (%.3g .. %.3g): unresolved (%s)", zero.ci_low, zero.ci_high, why);
    e.overhead = &negative;
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "faster than its reference") != NULL,
       "an interval wholly below 0 (%.3g .. %.3g): unresolved, never a negative cost (%s)", negative.ci_low,
       negative.ci_high, why);
    e = (ConstructEvidence){CONSTRUCT_SYNC, 640, &good, 20, 0, NULL, "team 0 on CPUs 1,1", -1};
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "inner threads shared a CPU (team 0 on CPUs 1,1)") != NULL,
       "level 2 with an inner team on one CPU: unresolved, and the row says so (%s)", why);
    e.busy = "the noise census: a team thread lost 25% of its time or more";
    ok(construct_unresolved(&e, why, sizeof why) && strncmp(why, "the machine was busy (the noise census", 38) == 0,
       "a busy machine makes every row unresolved, first reason (%s)", why);
    e = (ConstructEvidence){CONSTRUCT_SYNC, 640, &good, 20, 0, NULL, NULL, 11};
    ok(construct_unresolved(&e, why, sizeof why) &&
           strstr(why, "11 of 20 repetitions began with two team threads on one CPU (the other CPUs busy or the threads placed so): not the construct") != NULL,
       "level 1 with two team threads on one CPU at the start of 11 of 20 repetitions: unresolved (%s)", why);
    e.shared_cpu_reps = 10;
    ok(!construct_unresolved(&e, why, sizeof why), "at the start of half of them, the median is still a shared-free one: resolved");
    e.shared_cpu_reps = -1;
    ok(!construct_unresolved(&e, why, sizeof why), "a team not watched (larger than the CPUs): that rule says nothing");
    e.shared_cpu_reps = 20;
    e.disturbed_reps = 20;
    e.busy = "the noise census: a team thread lost 25% of its time or more";
    ok(construct_unresolved(&e, why, sizeof why) && strstr(why, "20 of 20 repetitions began with two team threads") == why,
       "threads on one CPU is named before the busy census and the preemptions it causes (%s)", why);
}

static void shared_cpus(void)
{
    int apart[] = {0, 1}, together[] = {1, 1}, last_with_first[] = {0, 1, 2, 0}, unknown[] = {-1, -1}, one[] = {3};
    ok(!team_shares_cpu(apart, 2), "two threads on CPUs 0 and 1 share none");
    ok(team_shares_cpu(together, 2), "two threads both on CPU 1 share it");
    ok(team_shares_cpu(last_with_first, 4), "the last of four threads on the first one's CPU shares it");
    ok(!team_shares_cpu(last_with_first, 3), "the first three of those share none");
    ok(!team_shares_cpu(unknown, 2), "two unknown CPUs (-1) are not taken for one");
    ok(!team_shares_cpu(one, 1) && !team_shares_cpu(one, 0), "one thread, or none, shares nothing");

    char text[64];
    int listed[] = {0, 1, -1, 1};
    describe_team_cpus(listed, 4, text, sizeof text);
    ok(strcmp(text, "0,1,1") == 0, "a small team's CPUs are listed, a thread that did not exist left out (%s)", text);
    int big[TEAM_CPUS_LISTED + 16];
    for (int i = 0; i < TEAM_CPUS_LISTED + 16; i++)
        big[i] = i == 5 ? -1 : 4 + i % 3;   /* CPUs 4, 5, 6 in turn; one thread missing */
    describe_team_cpus(big, TEAM_CPUS_LISTED + 16, text, sizeof text);
    char want[64];
    snprintf(want, sizeof want, "%d threads on 3 distinct CPUs (4..6)", TEAM_CPUS_LISTED + 15);
    ok(strcmp(text, want) == 0, "a team above %d threads is counted, not listed (%s)", TEAM_CPUS_LISTED, text);
    for (int i = 0; i < TEAM_CPUS_LISTED + 1; i++)
        big[i] = 7;
    describe_team_cpus(big, TEAM_CPUS_LISTED + 1, text, sizeof text);
    snprintf(want, sizeof want, "%d threads on CPU 7", TEAM_CPUS_LISTED + 1);
    ok(strcmp(text, want) == 0, "and all on one CPU, says which (%s)", text);
}

int main(void)
{
    char why[256];
    if (offload_open(-1, why, sizeof why) != 0) {   /* offload builds: the target rows' checks need the device */
        printf("Bail out! %s\n", why);
        return 255;
    }
    overhead_arithmetic();
    calibration();
    resolution();
    shared_cpus();
    options();
    region_log();
    checks_pass();
    return done_testing();
}
