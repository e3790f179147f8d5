/* The suite's construct and offload runs (clomp-write sets, called by
 * suite/constructs.sh and suite/offload.sh): the construct sweep's inner team
 * sizes, the offload crossover sweep's points, and the clomp options of a run
 * of a construct or offload set (docs/constructs.md and docs/offload.md, "In
 * the suite"). Here rather than in the driver's shell because a suite plans
 * and runs on a node without python3 too, and the options are asked for each
 * run.
 *
 *   sets inner-sizes MAX_THREADS            the sweep's inner team sizes, one a line
 *   sets offload-sweep PARTS ZPP TIME_SCALE "ZONES_PER_PART TIMESCALE" lines
 *   sets options SET THREADS TIME_SCALE CONSTRUCTS   (CONSTRUCTS: 0, 1 or epcc4)
 *                                           the options of a run of SET, nothing for other sets */
#define _POSIX_C_SOURCE 200809L
#include "suite_sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sweep's outer team, and the smallest largest inner team: on a node of
 * fewer than 2 x 4 cores the sweep still has two points (2x2 and 2x4),
 * oversubscribed (clomp says so in the run's output). */
#define CONSTRUCT_OUTER 2
#define CONSTRUCT_INNER_CAP 4
/* Three chunk sizes per schedule, not schedbench's eight: keeps each run to seconds. */
#define CONSTRUCT_CHUNKS "1,8,64"

/* The rows the suite runs, its tables and charts show and its estimate counts:
 * EPCC 3.1's syncbench and schedbench by default; with --constructs=epcc4 also
 * EPCC 4.0's (issue 32, item 5): the late arriver, the lock hints, ORDERED,
 * ATOMIC_SEQCST (sync), the monotonic schedules and TASKLOOP (loop), taskbench's
 * twelve (task) and arraybench's four clauses at three array sizes (data), each
 * kind with its own table and chart in the report. Opt-in: they multiply the
 * construct runs' time two to three times (docs/constructs.md, "In the suite"). */
static const char SUITE_CONSTRUCTS[] =
    "parallel,for,parallel_for,barrier,single,critical,lock,atomic,reduction,static,static_n,dynamic_n,guided_n";
static const char EPCC4_SYNC[] = "barrier_var,lock_contended_hint,lock_uncontended,lock_uncontended_hint,ordered,atomic_seqcst";
static const char EPCC4_LOOP[] = "static_monotonic,static_n_monotonic,dynamic_n_monotonic,guided_n_monotonic,taskloop_n";
static const char EPCC4_TASK[] = "parallel_task,parallel_task_deps,master_task,master_task_deps,master_task_busy_workers,"
                                 "conditional_task,task_wait,task_barrier,nested_task,nested_master_task,branch_task_tree,"
                                 "leaf_task_tree";
static const char EPCC4_DATA[] = "private,firstprivate,copyprivate,copyin";
/* Three of arraybench's eleven sizes: the smallest, the middle and the largest. */
#define CONSTRUCT_SIZES "1,243,59049"

/* The target rows the suite runs, and their parameters: map sizes in bytes
 * (8 B, 4 KiB, 512 KiB: --construct-chunks takes at most 1e6), the reduction's
 * array sizes in doubles (arraybench's 1, 243, 59049). */
static const char OFFLOAD_PROBES[] = "target,target_teams,target_teams_dpf,target_nowait,target_map_to,target_map_from,"
                                     "target_map_tofrom,target_map_alloc,target_atomic,target_reduction,"
                                     "target_teams_parallel,target_teams_parallels";
#define OFFLOAD_PROBE_BYTES "8,4096,524288"
#define OFFLOAD_PROBE_SIZES "1,243,59049"
/* The crossover sweep: zones per part as the target input's times 4^k, k = -2..3. */
static const double OFFLOAD_SWEEP_FACTORS[] = {1.0 / 16, 1.0 / 4, 1, 4, 16, 64};

/* A whole number > 0 as the driver validated it (is_count). */
static int count_arg(const char *word, long long *value)
{
    size_t len = strlen(word);
    if (len == 0 || len > 15 || strspn(word, "0123456789") < len || word[0] == '0')
        return 0;
    *value = strtoll(word, NULL, 10);
    return 1;
}

static long long clamp(long long v, long long lo, long long hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The sweep's inner team sizes: 2, 4, 8, ... up to max(max_threads / OUTER, CAP),
 * and that largest size itself when it is not a power of two. */
static void inner_sizes(long long max_threads)
{
    long long top = max_threads / CONSTRUCT_OUTER, i, last = 0;
    if (top < CONSTRUCT_INNER_CAP)
        top = CONSTRUCT_INNER_CAP;
    for (i = 2; i <= top; i *= 2)
        printf("%lld\n", last = i);
    if (last != top)
        printf("%lld\n", top);
}

/* The crossover sweep's points for PARTS and the target input's ZPP: the zones
 * rounded, at least 1, each once; the timeScale a tenth of the suite's (at
 * least 1), raised so that the mesh runs at least 20 iterations (clomp's 20
 * chunks: an interval for each median; 1e6 x timeScale zone updates per
 * subcycle's worth of iterations, 64 x 6400 zones needs 9). */
static void offload_sweep(long long parts, long long zpp, long long time_scale)
{
    long long base = time_scale / 10 < 1 ? 1 : time_scale / 10, last = 0;
    for (size_t i = 0; i < sizeof OFFLOAD_SWEEP_FACTORS / sizeof OFFLOAD_SWEEP_FACTORS[0]; i++) {
        long long z = (long long)((double)zpp * OFFLOAD_SWEEP_FACTORS[i] + 0.5);
        if (z < 1)
            z = 1;
        if (z == last)
            continue;
        long long need = (20 * parts * z + 999999) / 1000000;
        printf("%lld %lld\n", z, need > base ? need : base);
        last = z;
    }
}

/* The clomp options of a run of SET with THREADS threads: EPCC's repetitions,
 * test time and loop delay scaled with the suite's timeScale (its default 100:
 * 10 repetitions of 500 us, 5 us per loop iteration; --quick's 1: 6
 * repetitions, the fewest that give an interval, of 50 us, 0.2 us); the offload
 * probes take the construct runs' settings. */
static void set_options(const char *set, const char *threads, long long ts, int epcc4)
{
    long long reps = clamp(ts / 10, 6, 10), time_us = clamp(5 * ts, 50, 500);
    double per_loop = (double)ts / 20.0, delay = per_loop < 0.2 ? 0.2 : per_loop > 5 ? 5 : per_loop;
    if (strcmp(set, "offload") == 0)
        puts("--schedules=bestcase,static,offload_bestcase,offload");
    else if (strncmp(set, "offload_zpp", 11) == 0)
        puts("--schedules=static,offload");
    else if (strcmp(set, "offload_probes") == 0)
        printf("--constructs=%s --schedules=serial --construct-reps=%lld --construct-time=%lld"
               " --construct-chunks=" OFFLOAD_PROBE_BYTES " --construct-sizes=" OFFLOAD_PROBE_SIZES "\n",
               OFFLOAD_PROBES, reps, time_us);
    else if (strcmp(set, "constructs") == 0 || strncmp(set, "constructs_outer", 16) == 0) {
        printf("--constructs=%s", SUITE_CONSTRUCTS);
        if (epcc4)
            printf(",%s,%s,%s,%s", EPCC4_SYNC, EPCC4_LOOP, EPCC4_TASK, EPCC4_DATA);
        printf(" --schedules=serial --construct-reps=%lld --construct-time=%lld --construct-loop-delay=%g"
               " --construct-chunks=" CONSTRUCT_CHUNKS " ", reps, time_us, delay);
        if (epcc4)
            printf("--construct-sizes=" CONSTRUCT_SIZES " ");
        if (strncmp(set, "constructs_outer", 16) == 0)
            printf("--nested=%sx%s", set + 16, threads);
        /* The node's own limits (clomp --limits: docs/limits.md) once, on the key runs' team: the report's
         * "Node limits" and the buyer's barrier multiple read this run's record. */
        if (strcmp(set, "constructs") == 0)
            printf("--limits");
        putchar('\n');
    }
}

int suite_sets_main(int argc, char **argv)
{
    long long a, b, c;
    if (argc == 2 && strcmp(argv[0], "inner-sizes") == 0 && count_arg(argv[1], &a)) {
        inner_sizes(a);
        return 0;
    }
    if (argc == 4 && strcmp(argv[0], "offload-sweep") == 0 && count_arg(argv[1], &a) && count_arg(argv[2], &b) &&
        count_arg(argv[3], &c)) {
        offload_sweep(a, b, c);
        return 0;
    }
    if (argc == 5 && strcmp(argv[0], "options") == 0 && count_arg(argv[3], &c)) {
        set_options(argv[1], argv[2], c, strcmp(argv[4], "epcc4") == 0);
        return 0;
    }
    fprintf(stderr, "usage: clomp-write sets inner-sizes MAX_THREADS | offload-sweep PARTS ZPP TIME_SCALE |\n"
                    "       options SET THREADS TIME_SCALE CONSTRUCTS   (counts: whole numbers > 0; write/suite_sets.c)\n");
    return 2;
}
