/* The text blocks whose content grows with the team stay terminal-sized at
 * 256 threads (issue 47, item 8): --limits' block (32,640 pairs) and
 * --constructs' level-2 lines (8x32, 16x16, 64x4 inner teams) print no line
 * per pair, thread or team and no line wider than WIDEST_COLUMNS, and no
 * more lines than the same block at 4 threads. The records are built here
 * by hand, the pairs summarised by clomp's own arithmetic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/limits.h"
#include "report/text_report.h"
#include "tap.h"

/* The widest a block's line may be at any team size: what a terminal
 * shows in two rows at most (the blocks' widest fixed lines, the limits'
 * "Repetitions:" line, are about 190). */
#define WIDEST_COLUMNS 240

typedef struct Shape {
    long lines;       /* lines printed */
    long widest;      /* columns of the widest */
    long pair_lines;  /* lines listing one pair ("  threads A-B  CPUs ...") */
} Shape;

static Shape shape_of(const char *text)
{
    Shape s = {0, 0, 0};
    for (const char *at = text; *at != '\0';) {
        size_t n = strcspn(at, "\n");
        s.lines++;
        if ((long)n > s.widest)
            s.widest = (long)n;
        if (strncmp(at, "  threads ", 10) == 0)
            s.pair_lines++;
        at += n + (at[n] == '\n');
    }
    return s;
}

/* A node of `threads` CPUs, thread t on CPU t: SMT siblings t and t + threads/2, 8 cores to an L3, 2 sockets. */
static PairClass class_of(int a, int b, int threads)
{
    int cores = threads / 2, ca = a % cores, cb = b % cores;
    if (ca == cb)
        return PAIR_SMT;
    if (ca / 8 == cb / 8)
        return PAIR_SAME_L3;
    return ca / (cores / 2) == cb / (cores / 2) ? PAIR_SAME_SOCKET : PAIR_ACROSS_SOCKETS;
}

/* What --limits measured on `threads` threads, every figure a result. */
static void make_limits(LimitsRecord *l, int threads)
{
    memset(l, 0, sizeof *l);
    l->threads = threads;
    l->topology_root = "/sys/devices/system/cpu";
    l->cycles_ghz = 3.0;
    l->cycles_source = "measured";
    l->clock.measured = 1;
    l->clock.median_ghz = l->clock.min_ghz = l->clock.max_ghz = 3.0;
    l->pair_count = (long)threads * (threads - 1) / 2;
    l->pairs = calloc((size_t)l->pair_count, sizeof *l->pairs);
    l->trips_per_pair = 2048;
    long p = 0;
    for (int a = 0; a < threads; a++)
        for (int b = a + 1; b < threads && l->pairs != NULL; b++, p++) {
            LimitPair *q = &l->pairs[p];
            q->thread_a = q->cpu_a = a;
            q->thread_b = q->cpu_b = b;
            q->pair_class = class_of(a, b, threads);
            q->batches = 64;
            q->round_trip_ns = q->mean_ns = 40.0 + 60.0 * q->pair_class + (p % 7);
        }
    l->pairs_measured = l->pair_count;
    summarize_limit_pairs(l);
    double rep_ns[LIMIT_TIMINGS][3];
    for (int id = 0; id < LIMIT_TIMINGS; id++) {
        for (int r = 0; r < 3; r++)
            rep_ns[id][r] = 500.0 * (id + 1) + 10.0 * r;
        l->timing[id].key = l->timing[id].name = "Central counter";
        l->timing[id].reps = 3;
        l->timing[id].innerreps = 64;
        l->timing[id].disturbed_reps = 0;
        l->timing[id].reference = id != LIMIT_OMP_BARRIER && id != LIMIT_OMP_FORKJOIN;
        l->timing[id].checked_reps = 3;
        summarize_limit_timing(&l->timing[id], rep_ns[id], 3);
    }
    l->best_reference = 0;
    limit_multiple(&l->barrier_multiple, &l->timing[LIMIT_OMP_BARRIER], rep_ns[LIMIT_OMP_BARRIER], &l->timing[0],
                   rep_ns[0], 3, 0);
    limit_multiple(&l->forkjoin_multiple, &l->timing[LIMIT_OMP_FORKJOIN], rep_ns[LIMIT_OMP_FORKJOIN],
                   &l->timing[LIMIT_REF_FORKJOIN], rep_ns[LIMIT_REF_FORKJOIN], 3, 0);
    l->rounds = (int)ceil(log2(threads));
    l->bound.stats.median = l->rounds * l->all.median_ns / 2.0;
    l->llnl_barrier_cycles = 200;
}

/* The shape of what `print` writes for a record of `run` holding `limits` or `constructs`. */
static Shape printed(void (*print)(FILE *, const RunRecord *), const RunSetup *run, const LimitsRecord *limits,
                     const ConstructTable *constructs)
{
    RunRecord r;
    memset(&r, 0, sizeof r);
    r.run = run;
    r.limits = limits;
    r.constructs = constructs;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    print(out, &r);
    fclose(out);
    Shape s = shape_of(text != NULL ? text : "");
    free(text);
    return s;
}

/* The block --limits prints for `threads` threads. */
static Shape limits_block(int threads)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.numThreads = threads;
    run.limits.reps = 3;
    run.limits.target_us = 50;
    static LimitsRecord l;
    make_limits(&l, threads);
    Shape s = printed(print_limits, &run, &l, NULL);
    free_limits(&l);
    return s;
}

/* The construct block's set-up lines for an OUTER x INNER level 2, inner thread t of team k on CPU (k + t) % 2. */
static Shape constructs_block(int outer, int inner)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.numThreads = outer * inner;
    run.constructs.reps = 3;
    run.constructs.target_us = 50;
    run.max_active_levels = 2;
    static ConstructTable t;
    memset(&t, 0, sizeof t);
    t.outer = outer;
    t.inner = inner;
    t.cpus = 2;
    t.oversubscribed = 1;
    t.wait_policy = "passive";
    t.level2_team.nested = 1;
    t.level2_team.cpu_slots = outer * inner;
    for (int k = 0; k < outer; k++)
        for (int i = 0; i < inner; i++)
            t.level2_team.cpu[k * inner + i] = (k + i) % 2;
    return printed(print_constructs, &run, NULL, &t);
}

int main(void)
{
    Shape small = limits_block(4), big = limits_block(256);
    ok(small.pair_lines == 6, "--limits at 4 threads lists its 6 pairs (%ld lines)", small.pair_lines);
    ok(big.pair_lines == 0 && big.lines <= small.lines,
       "at 256 threads its 32,640 pairs are summarised: %ld lines, none a pair's (4 threads: %ld)", big.lines,
       small.lines);
    ok(big.widest <= WIDEST_COLUMNS, "no line of the 256-thread --limits block is wider than %d columns (%ld)",
       WIDEST_COLUMNS, big.widest);

    Shape c_small = constructs_block(2, 2);
    int shapes[][2] = {{8, 32}, {16, 16}, {64, 4}, {2, 128}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        Shape c = constructs_block(shapes[i][0], shapes[i][1]);
        ok(c.lines == c_small.lines && c.widest <= WIDEST_COLUMNS,
           "--constructs' level 2 at %dx%d: %ld lines as at 2x2, the widest %ld columns (at most %d)", shapes[i][0],
           shapes[i][1], c.lines, c.widest, WIDEST_COLUMNS);
    }
    return done_testing();
}
