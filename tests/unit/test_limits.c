/* clomp --limits' parts: pairs of CPUs classed from stand-in sysfs trees
 * (a 2-socket SMT-2 node, a one-socket chiplet node with four L3s, a tree
 * whose L3 is not index3 and that has no thread_siblings_list, an empty
 * one) against the layouts' own arithmetic; the pairs' spread, a timing's
 * figure and validity, and the multiples against plain re-implementations;
 * and every reference barrier and the reference fork/join checked at 2 to
 * 64 threads on however few CPUs there are (correctness, not timing), by
 * their own check and by an independent counter of arrivals, with a
 * barrier that lets a thread through early caught by the check. */
#define _XOPEN_SOURCE 700   /* nftw */
#include <ftw.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kernels/ref_check.h"
#include "measure/limits.h"
#include "numa/cpu_place.h"
#include "report/process_figures.h"
#include "tap.h"

/* ---- stand-in topologies ---------------------------------------------------------------- */

static void write_file(const char *root, const char *rel, const char *text)
{
    char path[512], dir[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *slash = strchr(path + strlen(root) + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        mkdir(dir, 0700);
    }
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static void remove_tree(const char *root)
{
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A layout by arithmetic: socket, core (within the node), L3 group and SMT group of each CPU. */
typedef struct Layout {
    const char *name;
    int cpus;
    int (*socket)(int cpu);
    int (*core)(int cpu);   /* distinct over the node */
    int (*l3)(int cpu);     /* distinct over the node */
    int cores_per_socket;
} Layout;

/* Two sockets of 4 cores, SMT-2, Linux's numbering: CPU c is thread c / 8 of core c % 8; one L3 per socket. */
static int smt2_core(int c) { return c % 8; }
static int smt2_socket(int c) { return c % 8 / 4; }
static int smt2_l3(int c) { return c % 8 / 4; }
/* One socket of 16 cores in 4 chiplets (CCX) of 4, each with its L3; no SMT. */
static int chiplet_core(int c) { return c; }
static int chiplet_socket(int c) { (void)c; return 0; }
static int chiplet_l3(int c) { return c / 4; }

static void list_of(const Layout *L, int (*group)(int), int cpu, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int c = 0; c < L->cpus; c++)
        if (group(c) == group(cpu))
            n += (size_t)snprintf(buf + n, size - n, "%s%d", n > 0 ? "," : "", c);
    snprintf(buf + n, size - n, "\n");
}

static void write_layout(const char *root, const Layout *L)
{
    char rel[128], text[256];
    for (int c = 0; c < L->cpus; c++) {
        snprintf(rel, sizeof rel, "cpu%d/topology/core_id", c);
        snprintf(text, sizeof text, "%d\n", L->core(c) % L->cores_per_socket);
        write_file(root, rel, text);
        snprintf(rel, sizeof rel, "cpu%d/topology/physical_package_id", c);
        snprintf(text, sizeof text, "%d\n", L->socket(c));
        write_file(root, rel, text);
        snprintf(rel, sizeof rel, "cpu%d/topology/thread_siblings_list", c);
        list_of(L, L->core, c, text, sizeof text);
        write_file(root, rel, text);
        for (int index = 0; index < 4; index++) {   /* L1d, L1i, L2 private to the core; L3 as laid out */
            snprintf(rel, sizeof rel, "cpu%d/cache/index%d/level", c, index);
            snprintf(text, sizeof text, "%d\n", index < 2 ? 1 : index);
            write_file(root, rel, text);
            snprintf(rel, sizeof rel, "cpu%d/cache/index%d/shared_cpu_list", c, index);
            list_of(L, index == 3 ? L->l3 : L->core, c, text, sizeof text);
            write_file(root, rel, text);
        }
    }
}

/* What the layout itself says a pair is. */
static PairClass expected_class(const Layout *L, int a, int b)
{
    if (a == b)
        return PAIR_SAME_CPU;
    if (L->core(a) == L->core(b))
        return PAIR_SMT;
    if (L->l3(a) == L->l3(b))
        return PAIR_SAME_L3;
    return L->socket(a) == L->socket(b) ? PAIR_SAME_SOCKET : PAIR_ACROSS_SOCKETS;
}

static void check_layout(const Layout *L, const long want[PAIR_CLASSES])
{
    char root[] = "/tmp/clomp-topology-XXXXXX";
    if (mkdtemp(root) == NULL) {
        ok(0, "%s: a stand-in tree could be made", L->name);
        return;
    }
    write_layout(root, L);
    long count[PAIR_CLASSES] = {0}, wrong = 0;
    char first_wrong[160] = "";
    for (int a = 0; a < L->cpus; a++)
        for (int b = a + 1; b < L->cpus; b++) {
            CpuPlace pa, pb;
            read_cpu_place(root, a, &pa);
            read_cpu_place(root, b, &pb);
            PairClass got = classify_cpu_pair(&pa, &pb), expect = expected_class(L, a, b);
            count[got]++;
            if (got != expect && wrong++ == 0)
                snprintf(first_wrong, sizeof first_wrong, "CPUs %d-%d: %s, not %s", a, b, pair_class_name(got),
                         pair_class_name(expect));
        }
    ok(wrong == 0, "%s: every pair of its %d CPUs is classed as the layout says%s%s", L->name, L->cpus,
       wrong ? ": " : "", first_wrong);
    ok(count[PAIR_SMT] == want[PAIR_SMT] && count[PAIR_SAME_L3] == want[PAIR_SAME_L3] &&
           count[PAIR_SAME_SOCKET] == want[PAIR_SAME_SOCKET] && count[PAIR_ACROSS_SOCKETS] == want[PAIR_ACROSS_SOCKETS],
       "%s: %ld SMT, %ld same-L3, %ld same-socket and %ld cross-socket pairs (counted by hand: %ld, %ld, %ld, %ld)",
       L->name, count[PAIR_SMT], count[PAIR_SAME_L3], count[PAIR_SAME_SOCKET], count[PAIR_ACROSS_SOCKETS],
       want[PAIR_SMT], want[PAIR_SAME_L3], want[PAIR_SAME_SOCKET], want[PAIR_ACROSS_SOCKETS]);
    CpuPlace same;
    read_cpu_place(root, 3, &same);
    ok(classify_cpu_pair(&same, &same) == PAIR_SAME_CPU, "%s: two threads on CPU 3 are on one CPU", L->name);
    remove_tree(root);
}

static void topologies(void)
{
    Layout smt2 = {"2-socket SMT-2 node", 16, smt2_socket, smt2_core, smt2_l3, 4};
    /* 8 cores x 1 sibling pair; per socket C(8,2) = 28 pairs less its 4 SMT ones; 8 x 8 across. */
    long smt2_want[PAIR_CLASSES] = {8, 48, 0, 64, 0, 0};
    check_layout(&smt2, smt2_want);
    Layout chiplet = {"chiplet node (4 L3s of 4 cores)", 16, chiplet_socket, chiplet_core, chiplet_l3, 16};
    long chiplet_want[PAIR_CLASSES] = {0, 24, 96, 0, 0, 0};   /* 4 x C(4,2) share an L3; the other 96 of 120 do not */
    check_layout(&chiplet, chiplet_want);

    /* No thread_siblings_list (core and socket decide) and the L3 at index2, as some kernels number them. */
    char root[] = "/tmp/clomp-topology-XXXXXX";
    if (mkdtemp(root) == NULL) {
        ok(0, "a stand-in tree could be made");
        return;
    }
    for (int c = 0; c < 4; c++) {
        char rel[96], text[16];
        snprintf(rel, sizeof rel, "cpu%d/topology/core_id", c);
        write_file(root, rel, "0\n");   /* core 0 of its socket: CPUs 0-1 on socket 0, 2-3 on socket 1 */
        snprintf(rel, sizeof rel, "cpu%d/topology/physical_package_id", c);
        snprintf(text, sizeof text, "%d\n", c / 2);
        write_file(root, rel, text);
        snprintf(rel, sizeof rel, "cpu%d/cache/index2/level", c);
        write_file(root, rel, "3\n");
        snprintf(rel, sizeof rel, "cpu%d/cache/index2/shared_cpu_list", c);
        write_file(root, rel, c < 2 ? "0-1\n" : "2-3\n");
    }
    CpuPlace p[5];
    for (int c = 0; c < 5; c++)
        read_cpu_place(root, c, &p[c]);
    ok(p[0].smt_group == -1 && p[0].l3_group == 0 && p[2].l3_group == 2,
       "without thread_siblings_list the SMT group is unknown; the L3 is found at index2 by its level");
    ok(classify_cpu_pair(&p[0], &p[1]) == PAIR_SMT, "core 0 of socket 0 twice: SMT siblings by core and socket");
    ok(classify_cpu_pair(&p[0], &p[2]) == PAIR_ACROSS_SOCKETS,
       "core 0 of socket 0 and core 0 of socket 1: across sockets, not siblings (core ids repeat per socket)");
    ok(classify_cpu_pair(&p[0], &p[4]) == PAIR_UNKNOWN, "a CPU sysfs says nothing about: unknown");
    ok(p[4].core == -1 && p[4].socket == -1 && p[4].smt_group == -1 && p[4].l3_group == -1,
       "and every field of its place is -1, not 0");
    remove_tree(root);
    ok(strcmp(pair_class_key(PAIR_ACROSS_SOCKETS), "cross_socket") == 0 && strcmp(pair_class_key(PAIR_SMT), "smt") == 0,
       "the classes' keys are the JSON's");
}

/* ---- arithmetic on what was measured ---------------------------------------------------- */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double sorted_median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void pair_spread(void)
{
    enum { N = 45 };
    LimitPair pairs[N];
    LimitsRecord l;
    memset(&l, 0, sizeof l);
    unsigned long seed = 7;   /* a fixed sequence: the oracle recomputes from the same values */
    for (int p = 0; p < N; p++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        pairs[p] = (LimitPair){0, 1, 0, 1, p % 11 == 0, (PairClass)(p % 4), p % 9 == 0 ? 0 : 64, 0, 0, p % 7 == 0};
        pairs[p].round_trip_ns = pairs[p].batches > 0 ? 50.0 + (double)(seed >> 33 & 1023) / 3.0 : NAN;
        if (pairs[p].batches == 0)
            pairs[p].pair_class = PAIR_SAME_CPU;
    }
    l.pairs = pairs;
    l.pair_count = N;
    summarize_limit_pairs(&l);
    int good = 1;
    long measured = 0, invalid = 0, moved = 0;
    for (int c = 0; c <= PAIR_CLASSES; c++) {
        double v[N];
        long n = 0;
        for (int p = 0; p < N; p++)
            if (pairs[p].batches > 0 && !pairs[p].invalid && (c == PAIR_CLASSES || pairs[p].pair_class == (PairClass)c))
                v[n++] = pairs[p].round_trip_ns;
        const LimitSpread *s = c == PAIR_CLASSES ? &l.all : &l.classes[c];
        if (n == 0) {
            good &= s->pairs == 0 && isnan(s->median_ns);
            continue;
        }
        double median = sorted_median(v, n);
        good &= s->pairs == n && s->median_ns == median && s->min_ns == v[0] && s->max_ns == v[n - 1];
    }
    for (int p = 0; p < N; p++) {
        measured += pairs[p].batches > 0;
        invalid += pairs[p].invalid;
        moved += pairs[p].moved;
    }
    ok(good, "the pairs' min, median and max, all and by class, are those of the sorted valid measured pairs");
    ok(l.pairs_measured == measured && l.pairs_same_cpu == N - measured && l.pairs_invalid == invalid &&
           l.pairs_moved == moved,
       "the pairs are counted: %ld measured, %ld on one CPU, %ld not a result, %ld moved", l.pairs_measured,
       l.pairs_same_cpu, l.pairs_invalid, l.pairs_moved);
}

static void timing_figures(void)
{
    double steady[20], stalled[20], sorted[20];
    for (int r = 0; r < 20; r++)
        steady[r] = stalled[r] = 100.0 + r;
    stalled[5] = 100.0 * 60;   /* one repetition preempted for most of the time */
    LimitTiming t = {.name = "Central counter"};
    summarize_limit_timing(&t, steady, 20);
    memcpy(sorted, steady, sizeof sorted);
    ok(!t.invalid && t.ns.median == sorted_median(sorted, 20) && t.ns.has_ci, "steady repetitions: the median, "
       "with an interval, and a result");
    summarize_limit_timing(&t, stalled, 20);
    ok(t.invalid && strstr(t.invalid_reason, "beyond the factor 2") != NULL,
       "one repetition 60 times the others: its mean is %.3gx the median, not a result", t.ns.mean / t.ns.median);

    /* The multiple: per repetition, OpenMP's over the reference's, then their median. */
    double omp[7] = {300, 310, 900, 305, 290, 320, 299}, ref[7] = {100, 101, 120, 99, 98, 150, 100}, ratio[7];
    for (int r = 0; r < 7; r++)
        ratio[r] = omp[r] / ref[r];
    LimitTiming o = {.name = "OpenMP barrier"}, b = {.name = "Dissemination"};
    LimitDerived d;
    limit_multiple(&d, &o, omp, &b, ref, 7, 0);
    ok(fabs(d.stats.median - sorted_median(ratio, 7)) < 1e-12 && d.not_a_result[0] == '\0',
       "the barrier multiple is the median of the per-repetition ratios (%.4g)", d.stats.median);
    limit_multiple(&d, &o, omp, &b, ref, 7, 1);
    ok(strcmp(d.not_a_result, LIMITS_BUSY) == 0, "on a busy machine the multiple is not a result, and says why");
    b.invalid = 1;
    limit_multiple(&d, &o, omp, &b, ref, 7, 0);
    ok(strstr(d.not_a_result, "Dissemination") != NULL, "nor when the reference is not a result");
}

/* ---- the reference barriers and fork/join, oversubscribed -------------------------------- */

/* An independent oracle beside the check's stamps: every thread counts its
 * arrival before each barrier; after barrier e every thread must see all
 * T x e arrivals, and never more than T x (e + 1). */
static int arrivals_hold(RefBarrier *b, int threads, long episodes)
{
    atomic_long arrived;
    atomic_init(&arrived, 0);
    long bad = 0;
#pragma omp parallel num_threads(threads) reduction(+ : bad)
    {
        int t = omp_get_thread_num();
        for (long e = 1; e <= episodes; e++) {
            atomic_fetch_add(&arrived, 1);
            b->kind->wait(b, t);
            long seen = atomic_load(&arrived);
            bad += seen < threads * e || seen > threads * (e + 1);
        }
    }
    return bad == 0;
}

static void barriers_at(int threads)
{
    for (size_t k = 0; k < ref_barrier_kind_count; k++) {
        const RefBarrierKind *kind = ref_barrier_kinds[k];
        RefBarrier *b = kind->create(threads);
        RefCheck *c = ref_check_create(threads);
        if (b == NULL || c == NULL) {
            ok(0, "%s at %d threads: out of memory", kind->name, threads);
            continue;
        }
        char why[256] = "";
        int failed = 0, checks = threads > 16 ? 2 : 5;
        for (int i = 0; i < checks && !failed; i++) {
#pragma omp parallel num_threads(threads)
            ref_check_barrier(b, c, 1000L * (i + 1), 0, omp_get_thread_num());
            failed = ref_check_verdict(c, why, sizeof why);
        }
        ok(!failed, "%s at %d threads: %d checks of %d episodes, every stamp its episode's%s%s", kind->name, threads,
           checks, REF_CHECK_EPISODES, failed ? ": " : "", why);
        ok(arrivals_hold(b, threads, threads > 16 ? 20 : 200),
           "%s at %d threads: after each barrier every thread has seen all arrivals of it and none beyond the next",
           kind->name, threads);
        ref_barrier_free(b);
        ref_check_free(c);
    }
    RefForkJoin *p = ref_forkjoin_create(threads);
    RefCheck *c = ref_check_create(threads);
    if (p == NULL || c == NULL) {
        ok(0, "the fork/join at %d threads: out of memory", threads);
        return;
    }
    char why[256] = "";
    int failed = 0;
    for (int i = 0; i < 3 && !failed; i++) {
        ref_pool_restart(p);
#pragma omp parallel num_threads(threads)
        ref_check_forkjoin(p, c, 1000L * (i + 1), 0, omp_get_thread_num());
        failed = ref_check_verdict(c, why, sizeof why);
    }
    ok(!failed, "the reference fork/join at %d threads: 3 checks in 3 regions, every worker's stamp read after each "
       "join, every worker ran every fork%s%s", threads, failed ? ": " : "", why);
    ok(ref_pool_runs(p, threads - 1) == 3L * REF_CHECK_EPISODES && atomic_load(&p->joined) ==
       (long)(threads - 1) * 3L * REF_CHECK_EPISODES, "and the join counter counted %d x %d joins",
       threads - 1, 3 * REF_CHECK_EPISODES);
    ref_forkjoin_free(p);
    ref_check_free(c);
}

/* A barrier that lets thread 0 through at once while the others take 50 ms to leave. */
static void early_wait(RefBarrier *b, int thread)
{
    (void)b;
    if (thread != 0) {
        struct timespec pause = {0, 50L * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

static void early_barrier_caught(void)
{
    RefBarrierKind early = ref_central_barrier;
    early.name = "early";
    early.wait = early_wait;
    RefBarrier *b = ref_central_barrier.create(3);
    RefCheck *c = ref_check_create(3);
    if (b == NULL || c == NULL) {
        ok(0, "out of memory");
        return;
    }
    b->kind = &early;
#pragma omp parallel num_threads(3)
    ref_check_barrier(b, c, 5000, 0, omp_get_thread_num());
    char why[256] = "";
    ok(ref_check_verdict(c, why, sizeof why) != 0 && strstr(why, "thread 0 read") != NULL,
       "a barrier that lets thread 0 through early is caught: %s", why);
    b->kind = &ref_central_barrier;
    ref_barrier_free(b);
    ref_check_free(c);
}

/* The figure table describes each figure once and wholly: a key of its own, and every field the
 * writers and the catalogue of figures read (--limits' rows of process_figures.c). */
static void figure_table(void)
{
    int whole = 1, unique = 1;
    for (size_t i = 0; i < limit_figure_count; i++) {
        const ProcessFigure *f = &limit_figures[i];
        whole &= f->key != NULL && f->label != NULL && f->measures != NULL && f->estimator != NULL &&
                 f->value != NULL && f->unit != NULL && f->member != NULL && f->csv != NULL && f->json != NULL &&
                 (strcmp(f->unit, "ns") == 0 || strcmp(f->unit, "cycles") == 0 || strcmp(f->unit, "x") == 0) &&
                 (f->better == BETTER_LOWER || f->better == BETTER_HIGHER) && f->timing < LIMIT_TIMINGS &&
                 (f->sets & FIGURE_SET_LIMITS) && strncmp(f->key, "limits_", 7) == 0 &&
                 strcmp(f->key + 7, f->member) == 0 && strcmp(f->csv, f->key) == 0;
        for (size_t j = 0; j < i; j++)
            unique &= strcmp(limit_figures[j].member, f->member) != 0;
    }
    ok(limit_figure_count >= 20 && whole, "each of the %zu --limits figures has a key, label, unit (ns, cycles, x), "
       "what it measures, its estimator, which way is better, its value, and its catalogue key limits_<member> "
       "(the CSV column)", limit_figure_count);
    ok(unique, "no two figures share a key (the JSON member and the CSV column)");
    LimitsRecord l;
    memset(&l, 0, sizeof l);
    l.timing[LIMIT_OMP_BARRIER] = (LimitTiming){.name = "OpenMP barrier", .measured = 1};
    l.timing[LIMIT_OMP_BARRIER].ns.median = 300.0;
    l.cycles_ghz = 2.0;
    l.best_reference = -1;
    int cycles_right = 0, withheld_right = 0;
    strcpy(l.bound.not_a_result, "no pair");
    for (size_t i = 0; i < limit_figure_count; i++) {
        LimitValue v = limit_figures[i].value(&l);
        if (strcmp(limit_figures[i].member, "omp_barrier_cycles") == 0)
            cycles_right = v.available && v.value == 600.0 && !v.withheld;
        if (strcmp(limit_figures[i].member, "barrier_bound_ns") == 0)
            withheld_right = v.withheld && strcmp(v.not_a_result, "no pair") == 0;
    }
    ok(cycles_right, "OpenMP's barrier of 300 ns at 2 GHz is 600 cycles");
    ok(withheld_right, "a derived figure that is not a result is withheld, with why");
}

int main(void)
{
    omp_set_dynamic(0);
    figure_table();
    topologies();
    pair_spread();
    timing_figures();
    static const int teams[] = {2, 3, 5, 8, 16};
    for (size_t i = 0; i < sizeof teams / sizeof teams[0]; i++)
        barriers_at(teams[i]);
    /* 64 threads on a 2-CPU machine: every wait yields its CPU many times (a few seconds when it is busy). */
    const char *lane = getenv("CLOMP_TEST_LANE");
    if (lane != NULL && strcmp(lane, "quick") == 0)
        ok(1, "the reference barriers and fork/join at 64 threads # SKIP full lane only (make check-all)");
    else
        barriers_at(64);
    ok(ref_rounds(1) == 0 && ref_rounds(2) == 1 && ref_rounds(5) == 3 && ref_rounds(64) == 6 && ref_rounds(65) == 7,
       "ceil(log2 T): 0, 1, 3, 6, 7 rounds for 1, 2, 5, 64, 65 threads");
    early_barrier_caught();
    return done_testing();
}
