/* The suite's plan up to its sweeps (clomp-write plan, called by suite/plan.sh's
 * build_plan): the key runs with the target input's replicates spread among
 * them, a hybrid suite's packed layouts, and the thread sweep at every zone
 * size. Here rather than in the driver's shell because a suite plans on a node
 * without python3 too; the runs after the sweeps (offload, the cliff's
 * oversubscribed run, the constructs) are added by the driver's own files.
 *
 * A run is "SET|POLICY|numThreads allocThreads numParts zonesPerPart zoneSize
 * flopScale timeScale", as every file of the driver reads it; an empty policy
 * is clomp's default, first touch. */
#define _GNU_SOURCE   /* asprintf */
#include "plan.h"
#include "text_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest counts planned for: a team, a part count or a replicate count of 2^20, at most 2^40
 * zones (the target input's zones times --max-zone-scale) or a factor of 2^40. Beyond them the
 * plan's products would overflow (the thread and zone lists, the team shapes), and no node runs them. */
#define MOST_THREADS (1LL << 20)
#define MOST_ZONES (1LL << 40)

struct settings {
    long long max_threads, target_parts, target_zones, zone_scale_factor, max_zone_scale, replicates;
    int numa, mpi_given;
    const char *time_scale, *mpi_ranks, *mpi_launcher;
};

/* The team's shape at THREADS threads and ZONES zones ("numParts zonesPerPart"):
 * parts follow the team. CLOMP 1.2's PARTS where THREADS divides it; else the
 * multiple of THREADS nearest PARTS (at least THREADS: every thread a part)
 * whose zonesPerPart keeps the total within 5% of ZONES: every thread the same
 * work. Also the driver's team_shape (clomp-write plan shape: suite/common.sh), warning alike. */
static void team_shape(long long t, long long z, long long target, char *out, size_t size)
{
    long long best_parts = 0, best_zpp = 0, best_err = -1;
    for (long long k = (target + t / 2) / t; k >= 1; k--) {
        long long parts = k * t, zpp = (z + parts / 2) / parts;
        if (zpp < 1)
            zpp = 1;
        long long err = (parts * zpp - z) * 1000 / z;
        if (err < 0)
            err = -err;
        if (best_err < 0 || err < best_err)
            best_parts = parts, best_zpp = zpp, best_err = err;
        if (err <= 50)
            break;
    }
    if (best_err < 0)
        best_parts = t, best_zpp = (z + t / 2) / t;
    if (best_err > 50)
        fprintf(stderr, "run_clomp.sh: warning: %lld threads: no shape within 5%% of %lld zones (off by %lld.%lld%%)\n", t,
                z, best_err / 10, best_err % 10);
    snprintf(out, size, "%lld %lld", best_parts, best_zpp);
}

/* One run's line, with the team's shape at its threads and zones. */
static char *run_line(const struct settings *s, const char *set, const char *policy, long long threads, int alloc,
                      long long zones)
{
    char shape[64], *line = NULL;
    team_shape(threads, zones, s->target_parts, shape, sizeof shape);
    if (asprintf(&line, "%s|%s|%lld %d %s 32 1 %s", set, policy, threads, alloc, shape, s->time_scale) < 0)
        return NULL;
    return line;
}

static int build(const struct settings *s, FILE *out)
{
    static const char *const numa_policies[] = {"interleave", "local", "node:0"};
    struct lines keys = {0};
    long long zones[64], threads[64 + 16];
    const size_t most_zones = sizeof zones / sizeof zones[0], most_threads = sizeof threads / sizeof threads[0];
    size_t n_zones = 0, n_threads = 0, first_big;
    int failed = 0;
    /* 1, FACTOR, FACTOR^2, ... up to MAX_ZONE_SCALE; the next scale is taken only when it cannot pass
     * MAX_ZONE_SCALE, so that it never overflows (plan_main keeps every zone count within MOST_ZONES). */
    for (long long scale = 1; n_zones < most_zones; scale *= s->zone_scale_factor) {
        zones[n_zones++] = s->target_zones * scale;
        if (scale > s->max_zone_scale / s->zone_scale_factor)
            break;
    }
    for (long long t = 1; t <= s->max_threads && t <= 16; t++)
        threads[n_threads++] = t;
    for (long long t = 32; t < s->max_threads && n_threads < most_threads - 1; t *= 2)
        threads[n_threads++] = t;
    if (s->max_threads > 16)
        threads[n_threads++] = s->max_threads;

    for (size_t i = 0; i < n_zones; i++)
        failed |= lines_add(&keys, run_line(s, "key", "", s->max_threads, -1, zones[i]));
    /* the largest two sizes again with one allocating thread, and (--numa) each policy */
    first_big = n_zones > 2 ? n_zones - 2 : 0;
    for (size_t i = first_big; i < n_zones; i++)
        failed |= lines_add(&keys, run_line(s, "key", "", s->max_threads, 1, zones[i]));
    for (size_t i = first_big; s->numa && i < n_zones; i++)
        for (int p = 0; p < 3; p++)
            failed |= lines_add(&keys, run_line(s, "key", numa_policies[p], s->max_threads, -1, zones[i]));
    if (failed || keys.n == 0) {
        lines_free(&keys);
        return 3;
    }

    /* The target input (the first key run) runs REPLICATES times as separate
     * processes, spread over the other key runs rather than back to back, so
     * that what separates processes (placement, a neighbour, frequency) shows
     * up between them: T K2 K3 T K4 K5 T ... First the count of key runs. */
    long long n = s->replicates, others = (long long)keys.n - 1;
    fprintf(out, "%lld\n", n + others);
    for (long long r = 0; r < n; r++) {
        fprintf(out, "%s\n", keys.at[0]);
        /* (r + 1) * others / n <= others: never past the last key run, as the bound says again */
        for (long long k = 1 + r * others / n; k < 1 + (r + 1) * others / n && k <= others; k++)
            fprintf(out, "%s\n", keys.at[k]);
    }
    lines_free(&keys);

    /* 1.2's packed hybrid layouts: cores/4 ranks of 4 threads, cores/16 of 16, on
     * the 6400-zone target input; only where a node has two such groups of cores,
     * and the launcher's rank count can be scaled. */
    if (s->mpi_given && !*s->mpi_ranks)
        fprintf(stderr, "run_clomp.sh: notice: --mpi \"%s\" gives no rank count (-np N, -n N, --ntasks=N): no packed layouts\n",
                s->mpi_launcher);
    for (int t = 4; s->mpi_given && *s->mpi_ranks && t <= 16; t *= 4)
        if (s->max_threads >= 2LL * t)
            fprintf(out, "packed%d||%d 1 %lld %lld 32 1 %s\n", t, t, s->target_parts,
                    (s->target_zones + s->target_parts / 2) / s->target_parts, s->time_scale);

    /* The sweep at every size, and at the target input's zones cores - 1 too
     * (the team-size cliff, suite/cliff.sh): 1..16, 32, 64, ..., the cores. */
    for (size_t i = 0; i < n_zones; i++) {
        char set[40];
        long long below = s->max_threads - 1;
        int below_listed = 0;
        snprintf(set, sizeof set, "%lldzones", zones[i]);
        for (size_t k = 0; k <= n_threads; k++) {
            long long t = k < n_threads ? threads[k] : 0;
            /* cores - 1 in its place among the counts, once */
            if (zones[i] == s->target_zones && below >= 1 && !below_listed && (k == n_threads || t >= below)) {
                below_listed = 1;
                if (k == n_threads || t != below) {
                    char *line = run_line(s, set, "", below, -1, zones[i]);
                    if (!line)
                        return 3;
                    fprintf(out, "%s\n", line);
                    free(line);
                }
            }
            if (k == n_threads)
                break;
            char *line = run_line(s, set, "", t, -1, zones[i]);
            if (!line)
                return 3;
            fprintf(out, "%s\n", line);
            free(line);
        }
    }
    return 0;
}

/* S, a whole number > 0, into *VALUE: 0; -1 when it is not one (the caller says the usage); -2 when it
 * is over MOST, said here in one line as NAME's. */
static int count(const char *s, const char *name, long long most, long long *value)
{
    char *end;
    if (s[0] < '1' || s[0] > '9' || strspn(s, "0123456789") != strlen(s))
        return -1;
    errno = 0;
    *value = strtoll(s, &end, 10);
    if (*end)
        return -1;
    if (errno == ERANGE || *value > most) {
        fprintf(stderr, "clomp-write plan: %s: '%s' is too large (at most %lld)\n", name, s, most);
        return -2;
    }
    return 0;
}

/* clomp-write plan shape THREADS ZONES PARTS: the team's shape, one line (make run, bench/ and the
 * driver's runs after the sweeps ask it). */
static int shape_main(int argc, char **argv)
{
    long long t, z, parts;
    char shape[64];
    int bad = argc != 3 ? -1 : 0;
    if (!bad)
        bad = count(argv[0], "THREADS", MOST_THREADS, &t);
    if (!bad)
        bad = count(argv[1], "ZONES", MOST_ZONES, &z);
    if (!bad)
        bad = count(argv[2], "PARTS", MOST_THREADS, &parts);
    if (bad) {
        if (bad == -1)
            fprintf(stderr, "usage: clomp-write plan shape THREADS ZONES PARTS   (whole numbers > 0)\n");
        return 2;
    }
    team_shape(t, z, parts, shape, sizeof shape);
    return printf("%s\n", shape) < 0 || fflush(stdout) != 0 ? 3 : 0;
}

int plan_main(int argc, char **argv)
{
    struct settings s = {0};
    if (argc >= 1 && strcmp(argv[0], "shape") == 0)
        return shape_main(argc - 1, argv + 1);
    static const char *const names[] = {"MAX_THREADS", "TARGET_PARTS", "TARGET_ZONES", "ZONE_SCALE_FACTOR",
                                         "MAX_ZONE_SCALE", "REPLICATES"};
    long long *const values[] = {&s.max_threads, &s.target_parts, &s.target_zones, &s.zone_scale_factor,
                                 &s.max_zone_scale, &s.replicates};
    const long long most[] = {MOST_THREADS, MOST_THREADS, MOST_ZONES, MOST_ZONES, MOST_ZONES, MOST_THREADS};
    int bad = argc != 11 ? -1 : 0;
    for (int k = 0; k < 6 && !bad; k++)
        bad = count(argv[k], names[k], most[k], values[k]);
    if (!bad && s.zone_scale_factor < 2)
        bad = -1;
    if (!bad && s.target_zones > MOST_ZONES / s.max_zone_scale) {
        fprintf(stderr, "clomp-write plan: TARGET_ZONES x MAX_ZONE_SCALE: %lld x %lld zones is too many (at most %lld)\n",
                s.target_zones, s.max_zone_scale, MOST_ZONES);
        bad = -2;
    }
    if (bad == -2)
        return 2;
    if (bad) {
        fprintf(stderr, "usage: clomp-write plan MAX_THREADS TARGET_PARTS TARGET_ZONES ZONE_SCALE_FACTOR MAX_ZONE_SCALE\n"
                        "       REPLICATES NUMA(0|1) TIME_SCALE MPI_GIVEN(0|1) MPI_RANKS MPI_LAUNCHER   (counts: whole numbers > 0;\n"
                        "       the factor at least 2)\n");
        return 2;
    }
    s.numa = strcmp(argv[6], "1") == 0;   /* --numa */
    s.time_scale = argv[7];
    s.mpi_given = strcmp(argv[8], "1") == 0;   /* --mpi */
    s.mpi_ranks = argv[9];
    s.mpi_launcher = argv[10];
    int status = build(&s, stdout);
    if (fflush(stdout) != 0 && status == 0)
        status = 3;
    return status;
}
