/* What an MPI run's report shows, from hand-built per-rank measurements:
 * CLOMP 1.2's choice of rank (fastest for Serial Ref and Bestcase, slowest
 * for the rest) and its MPI Dist figures, the overhead of the shown
 * schedule against the shown bestcase, the outlier rule across ranks, CPU
 * lists and ranks sharing CPUs. Expected values are worked out by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/schedule.h"
#include "measure/sequence.h"
#include "measure/summarize.h"
#include "mpi/rank_view.h"
#include "tap.h"

#define RANKS 5
#define MAX_SCHEDULES 32               /* as RunSetup.selected: every row of the schedule table */
static long ends[1] = {10};            /* one chunk of one iteration */
static double chunk_seconds[RANKS][MAX_SCHEDULES], round_seconds[RANKS][MAX_SCHEDULES],
    round_median[RANKS][MAX_SCHEDULES];
static Measurement table_results[RANKS * MAX_SCHEDULES];

/* Rank r's measurement i: one chunk of 10 subcycles taking us x 10 microseconds. */
static void set(RankTable *t, int r, size_t i, double us)
{
    Measurement *m = &t->results[(size_t)r * t->count + i];
    memset(m, 0, sizeof *m);
    m->schedule = clomp_schedules[i];
    m->selected = 1;
    m->chunks = 1;
    m->chunk_end = ends;
    m->rounds_done = 1;
    chunk_seconds[r][i] = us * 10e-6;
    round_seconds[r][i] = us * 10e-6;
    m->chunk_seconds = &chunk_seconds[r][i];
    m->round_seconds = &round_seconds[r][i];
    m->round_median_us = &round_median[r][i];
}

static size_t index_of(const char *key)
{
    for (size_t i = 0; i < clomp_schedule_count; i++)
        if (strcmp(clomp_schedules[i]->key, key) == 0)
            return i;
    return 0;
}

/* Every rank's measurements summarized against its own bestcase, as each rank does. */
static void finish_ranks(const RunSetup *run, RankTable *t)
{
    size_t best = index_of("bestcase");
    for (int r = 0; r < t->ranks; r++)
        for (size_t i = 0; i < t->count; i++)
            finish_measurement(run, &t->results[(size_t)r * t->count + i],
                               clomp_schedules[i]->role == ROLE_CHECKED ? &t->results[(size_t)r * t->count + best]
                                                                         : NULL);
}

static void test_choice_and_overhead(void)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.rounds = 1;
    run.numThreads = 1;
    RankTable t = {.ranks = 3, .count = clomp_schedule_count, .results = table_results};
    size_t serial = index_of("serial"), best = index_of("bestcase"), stat = index_of("static");
    for (size_t i = 0; i < t.count; i++)
        for (int r = 0; r < 3; r++)
            set(&t, r, i, 1.0);
    /* Serial Ref us/Loop by rank: 20, 18, 22; Bestcase: 12, 10, 11; Static: 13, 16, 14. */
    set(&t, 0, serial, 20.0), set(&t, 1, serial, 18.0), set(&t, 2, serial, 22.0);
    set(&t, 0, best, 12.0), set(&t, 1, best, 10.0), set(&t, 2, best, 11.0);
    set(&t, 0, stat, 13.0), set(&t, 1, stat, 16.0), set(&t, 2, stat, 14.0);
    finish_ranks(&run, &t);

    RankSpread sp = rank_spread(&t, serial);
    /* runtimes are us x 10 subcycles: 200, 180, 220 microseconds */
    ok(sp.ranks == 3 && sp.min_rank == 1 && sp.max_rank == 2 && fabs(sp.min_seconds - 180e-6) < 1e-12 &&
           fabs(sp.max_seconds - 220e-6) < 1e-12 && fabs(sp.avg_seconds - 200e-6) < 1e-12,
       "MPI Dist of Serial Ref: min 180 us on rank 1, max 220 us on rank 2, average 200 us");
    ok(sp.used_fastest && sp.used_rank == 1, "Serial Ref shows the fastest rank (1), as CLOMP 1.2");
    sp = rank_spread(&t, stat);
    ok(!sp.used_fastest && sp.used_rank == 1, "Static OMP shows the slowest rank (1: 16 us/Loop), as CLOMP 1.2");

    Measurement view_best, view_stat;
    rank_view(&run, &t, best, NULL, &view_best);
    rank_view(&run, &t, stat, &view_best, &view_stat);
    ok(view_best.spread.used_rank == 1 && view_best.us == 10.0, "the shown Bestcase is rank 1's 10 us/Loop");
    /* 1.2's overhead: slowest Static (16) - fastest Bestcase (10) = 6; efficacy 10 / 16 = 62.5% */
    ok(view_stat.has_overhead && fabs(view_stat.overhead_us - 6.0) < 1e-9 && fabs(view_stat.efficacy - 62.5) < 1e-9,
       "the shown Static OMP overhead is slowest Static minus fastest Bestcase: 16 - 10 = 6 us/Loop, efficacy 62.5%%");
    set(&t, 1, stat, 12.0), set(&t, 2, stat, 17.0);   /* now the slowest Static is rank 2 (17), its own bestcase 11 */
    finish_ranks(&run, &t);
    rank_view(&run, &t, stat, &view_best, &view_stat);
    ok(view_stat.spread.used_rank == 2 && fabs(view_stat.overhead_us - 7.0) < 1e-9,
       "slowest Static on rank 2 (17) against the fastest Bestcase on rank 1 (10): 7 us/Loop, not rank 2's own 6");
}

/* The rank is chosen by Runtime (1.2's rule) and the figures shown on 1.2's
 * lines are that Runtime's, so "max used" is the largest us/Loop printed
 * even when a rank's median chunk ranks it otherwise. */
static void test_shown_figures_are_the_chosen_runtime(void)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.rounds = 1;
    run.numThreads = 1;
    RankTable t = {.ranks = 3, .count = clomp_schedule_count, .results = table_results};
    size_t best = index_of("bestcase"), stat = index_of("static");
    for (size_t i = 0; i < t.count; i++)
        for (int r = 0; r < 3; r++)
            set(&t, r, i, 1.0);
    set(&t, 0, best, 10.0), set(&t, 1, best, 10.0), set(&t, 2, best, 10.0);
    /* Static: chunks 13, 16, 14 us/Loop; rank 0's Runtime says 17 (its run was
     * slower than its chunk: e.g. time between chunks), the others agree. */
    set(&t, 0, stat, 13.0), set(&t, 1, stat, 16.0), set(&t, 2, stat, 14.0);
    round_seconds[0][stat] = 17.0 * 10e-6;
    finish_ranks(&run, &t);
    Measurement view_best, view_stat;
    rank_view(&run, &t, best, NULL, &view_best);
    rank_view(&run, &t, stat, &view_best, &view_stat);
    ok(view_stat.spread.used_rank == 0 && fabs(view_stat.runtime_us - 17.0) < 1e-9,
       "Static OMP shows rank 0, the slowest by Runtime, and its us/Loop from that Runtime: 17 (got rank %d, %.2f)",
       view_stat.spread.used_rank, view_stat.runtime_us);
    double largest = 0.0;
    for (int r = 0; r < 3; r++) {
        const Measurement *m = &t.results[(size_t)r * t.count + stat];
        largest = m->runtime_us > largest ? m->runtime_us : largest;
    }
    ok(fabs(view_stat.runtime_us - largest) < 1e-9, "so 'max used' is the largest us/Loop of any rank (%.2f), not rank 1's 16",
       largest);
    ok(fabs(view_stat.runtime_overhead_us - 7.0) < 1e-9,
       "and 1.2's overhead shown is that Runtime's against the shown Bestcase: 17 - 10 = 7 us/Loop");
}

static void test_outliers(void)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.rounds = 1;
    RankTable t = {.ranks = RANKS, .count = clomp_schedule_count, .results = table_results};
    size_t serial = index_of("serial"), best = index_of("bestcase"), stat = index_of("static");
    for (size_t i = 0; i < t.count; i++)
        for (int r = 0; r < RANKS; r++)
            set(&t, r, i, 1.0);
    /* Serial Ref: 10.0 10.1 9.9 10.05 14.0 -> median 10.05, |dev| 0.05 0.05 0.15 0 3.95, MAD 0.05:
     * cut max(3.5 x 1.4826 x 0.05 = 0.259, 1% of 10.05 = 0.1005) = 0.259: only rank 4 (3.95). */
    const double serial_us[RANKS] = {10.0, 10.1, 9.9, 10.05, 14.0};
    /* Static - Bestcase overheads 1.0 1.0 1.0 1.0 1.05: median 1, MAD 0, but 0.05 is below 1% of
     * Serial Ref's median (0.1005): no Static outlier. */
    for (int r = 0; r < RANKS; r++) {
        set(&t, r, serial, serial_us[r]);
        set(&t, r, best, 5.0);
        set(&t, r, stat, r == 4 ? 6.05 : 6.0);
    }
    finish_ranks(&run, &t);
    RankOutliers o;
    rank_outliers(&t, NULL, &o);
    ok(o.ranks == RANKS && fabs(o.serial_median - 10.05) < 1e-9 && fabs(o.overhead_median - 1.0) < 1e-9,
       "the ranks' medians: Serial Ref 10.05, Static overhead 1.0 us/Loop");
    ok(o.count == 1 && o.item[0].rank == 4 && strcmp(o.item[0].figure, "Serial Ref us/Loop") == 0 &&
           fabs(o.item[0].deviation - 3.95) < 1e-9,
       "rank 4's Serial Ref (14.0, +3.95) is the one outlier; 0.05 us/Loop of Static overhead is not");
    set(&t, 2, stat, 8.0);   /* overhead 3.0: 2 from the median, far above the 0.1005 floor */
    finish_ranks(&run, &t);
    rank_outliers(&t, NULL, &o);
    ok(o.count == 2 && o.item[1].rank == 2 && strcmp(o.item[1].figure, "Static OMP overhead") == 0,
       "a rank whose Static overhead is 3.0 against a median of 1.0 is named too");
    /* Rank 4's own noise census said busy: left out, so the others' median is 10.0 and nothing stands out
     * (rank 2's Static overhead 3.0 still does: busy ranks do not shield the others). */
    RankInfo info[RANKS];
    memset(info, 0, sizeof info);
    info[4].busy_judged = info[4].busy = 1;
    rank_outliers(&t, info, &o);
    ok(o.busy == 1 && o.judged && fabs(o.serial_median - 10.025) < 1e-9 && o.count == 1 && o.item[0].rank == 2,
       "a rank busy by its own census (rank 4) is left out and never named an outlier; the other four are judged");
    info[0].busy_judged = info[0].busy = info[1].busy_judged = info[1].busy = 1;
    rank_outliers(&t, info, &o);
    ok(o.busy == 3 && !o.judged && o.count == 0, "with 3 of 5 ranks busy, 2 are left: nothing is judged");
    t.ranks = 2;
    rank_outliers(&t, NULL, &o);
    ok(o.count == 0, "with 2 ranks no rank is an outlier against the other");
}

static void test_cpus(void)
{
    RankInfo info[3];
    memset(info, 0, sizeof info);
    char text[64];
    int count;
    /* CPUs 0 1 2 3 8 10 11 */
    const int cpus[] = {0, 1, 2, 3, 8, 10, 11};
    for (size_t k = 0; k < sizeof cpus / sizeof cpus[0]; k++)
        info[0].cpu_mask[cpus[k] / 8] |= (unsigned char)(1u << (cpus[k] % 8));
    cpu_list_text(info[0].cpu_mask, text, sizeof text, &count);
    ok(strcmp(text, "0-3,8,10-11") == 0 && count == 7, "CPUs 0 1 2 3 8 10 11 read 0-3,8,10-11 (7): %s", text);

    WarningList w = {0};
    snprintf(info[0].host, sizeof info[0].host, "n1");
    snprintf(info[1].host, sizeof info[1].host, "n1");
    snprintf(info[2].host, sizeof info[2].host, "n2");
    info[1].cpu_mask[1] = 1;   /* CPU 8: shared with rank 0 */
    info[2].cpu_mask[0] = 1;   /* CPU 0, but on another host */
    rank_layout_warnings(info, 3, &w);
    ok(w.count == 1 && strstr(w.item[0].text, "1 pair of ranks on one host share CPUs (first: ranks 0 and 1 on n1)"),
       "ranks 0 and 1 sharing CPU 8 on n1 get a warning; rank 2's CPU 0 on n2 does not");
    info[1].cpu_mask[1] = 2;   /* CPU 9 */
    memset(&w, 0, sizeof w);
    rank_layout_warnings(info, 3, &w);
    ok(w.count == 0, "ranks on one host with disjoint CPUs get no warning");
}

int main(void)
{
    if (clomp_schedule_count > MAX_SCHEDULES) {
        printf("Bail out! the schedule table has %zu rows, this test has room for %d\n", clomp_schedule_count,
               MAX_SCHEDULES);
        return 1;
    }
    test_choice_and_overhead();
    test_shown_figures_are_the_chosen_runtime();
    test_outliers();
    test_cpus();
    return done_testing();
}
