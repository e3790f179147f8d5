/* The figures and notes clomp adds to a CLOMP 1.2 block: medians over
 * chunks and rounds, the overhead as a median of paired per-round
 * differences, "(within noise)" only when the interval of that very figure
 * (CLOMP 1.2's overhead, from Runtime) reaches 0, the noisy
 * warning, cycles, and numbers never printed more precisely than their
 * spread supports. Measurements are constructed by hand here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/schedule.h"
#include "measure/sequence.h"
#include "measure/summarize.h"
#include "measure/warnings.h"
#include "report/text_format.h"
#include "report/text_report.h"
#include "tap.h"

static char text[16384];
static long ends[4] = {10, 20, 30, 40};   /* 4 chunks of one iteration each */

static RunSetup setup(void)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.numThreads = 2;
    run.iterations = 4;
    run.subcycles = 40;
    run.trials = 4;
    run.chunk_end = ends;
    run.rounds = 1;
    run.cycles.source = CYCLES_GIVEN;
    run.cycles.ghz = 2.0;
    return run;
}

static Measurement measured(const char *key, double us)
{
    Measurement m;
    memset(&m, 0, sizeof m);
    m.schedule = find_schedule(key);
    m.selected = 1;
    m.chunks = 4;
    m.chunk_end = ends;
    m.rounds_done = 1;
    m.us = us;
    m.seconds = us * 40e-6;
    m.runtime_us = us;   /* Runtime agrees with the median chunk unless a test says otherwise */
    m.team.threads = 2;
    m.stats.n = 20;
    m.stats.median = us;
    m.stats.min = us * 0.99;
    m.stats.max = us * 1.01;
    m.stats.has_ci = 1;
    m.stats.ci_low = us - 0.01;
    m.stats.ci_high = us + 0.01;
    m.stats.cv = 0.01;
    return m;
}

static const char *block(const RunSetup *run, const Measurement *m, const Measurement *serial,
                         const Measurement *bestcase)
{
    FILE *out = fmemopen(text, sizeof text, "w");
    print_block_results(out, run, m, serial, bestcase);
    fclose(out);
    return text;
}

static const char *line_with(const char *key)
{
    static char line[512];
    const char *at = strstr(text, key);
    if (at == NULL)
        return "";
    while (at > text && at[-1] != '\n')
        at--;
    size_t n = strcspn(at, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), at);
    return line;
}

static void test_noise_notes(void)
{
    RunSetup run = setup();
    Measurement serial = measured("serial", 10.0), best = measured("bestcase", 5.0), stat = measured("static", 4.95);
    stat.efficacy = stat.runtime_efficacy = 5.0 / 4.95 * 100.0;
    stat.has_overhead = 1;
    stat.overhead_us = stat.runtime_overhead_us = -0.05;
    stat.has_overhead_ci = 1;
    stat.overhead_low = -0.12;
    stat.overhead_high = 0.03;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "(within noise)") == NULL,
       "a negative 1.2 overhead without an interval of its own is not called noise, whatever the median's interval");
    stat.has_runtime_overhead_ci = 1;
    stat.runtime_overhead_low = -0.15;
    stat.runtime_overhead_high = 0.04;
    block(&run, &stat, &serial, &best);
    ok(strstr(line_with(" Overhead: "), "-0.05 (versus bestcase, in us/Loop) (within noise)") != NULL,
       "a negative overhead whose interval reaches 0 is printed with (within noise): %s", line_with(" Overhead: "));
    ok(strstr(line_with("Efficacy: "), "101.0% (of bestcase 5.00 us/Loop) (within noise)") != NULL,
       "so is the efficacy above 100%% that goes with it: %s", line_with("Efficacy: "));
    ok(strstr(line_with("Med. Ovh: "), "within noise of 0") != NULL, "the overhead line says it is within noise of 0");

    stat.runtime_overhead_high = -0.02;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "(within noise)") == NULL && strstr(line_with(" Overhead: "), "beyond noise") != NULL,
       "an interval entirely below 0 is not called noise: %s", line_with(" Overhead: "));

    /* Issue 44's case: 1.2's overhead -2.11 (a Bestcase inflated by its last
     * chunk) beside a median overhead of 0.60 [0.597, 0.603]: the median's
     * interval says nothing about 1.2's figure. */
    stat.runtime_overhead_us = -2.11;
    stat.runtime_efficacy = 130.0;
    stat.overhead_us = 0.60;
    stat.overhead_low = 0.597;
    stat.overhead_high = 0.603;
    stat.runtime_overhead_low = -2.4;
    stat.runtime_overhead_high = -1.8;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "(within noise)") == NULL && strstr(line_with(" Overhead: "), "-2.11 (versus bestcase, in us/Loop) (below") != NULL,
       "1.2's -2.11 whose own interval lies below 0 is not called noise: %s", line_with(" Overhead: "));

    stat = measured("static", 5.5);
    stat.has_overhead = 1;
    stat.overhead_us = stat.runtime_overhead_us = 0.5;
    stat.has_overhead_ci = 1;
    stat.overhead_low = -0.1;
    stat.overhead_high = 1.1;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "(within noise)") == NULL && strstr(line_with(" Overhead: "), "0.50 (versus bestcase, in us/Loop)\n") == NULL &&
           strcmp(line_with(" Overhead: "), "   Static OMP Overhead: 0.50 (versus bestcase, in us/Loop)") == 0,
       "a positive overhead keeps CLOMP 1.2's line exactly, whatever its interval");
    ok(strstr(line_with("Med. Ovh: "), "95% CI -0.1 .. 1.1,") != NULL,
       "an interval 1.2 wide is printed to one decimal: %s", line_with("Med. Ovh: "));
}

/* 2-5 rounds: the paired differences' range is printed, and says nothing of 1.2's figure. */
static void test_round_range_noise(void)
{
    RunSetup run = setup();
    Measurement serial = measured("serial", 10.0), best = measured("bestcase", 5.0), stat = measured("static", 4.9);
    stat.rounds_done = 3;
    stat.efficacy = stat.runtime_efficacy = 102.0;
    stat.has_overhead = 1;
    stat.overhead_us = stat.runtime_overhead_us = -0.1;
    stat.has_round_range = 1;
    stat.round_range_low = -0.3;
    stat.round_range_high = 0.2;
    block(&run, &stat, &serial, &best);
    ok(strstr(line_with(" Overhead: "), "(within noise)") == NULL && strstr(line_with(" Overhead: "), "beyond") == NULL,
       "with 3 rounds 1.2's overhead (a median of Runtimes) has no interval: nothing is said of it, whatever the "
       "rounds' medians do: %s", line_with(" Overhead: "));
    ok(strstr(line_with("Med. Ovh: "), "no 95% CI from 3 rounds (needs 6); the rounds range -0.3 .. 0.2,") != NULL,
       "and the overhead line says there is no 95%% interval, giving the range instead: %s", line_with("Med. Ovh: "));
}

static void test_lines_and_warnings(void)
{
    RunSetup run = setup();
    Measurement serial = measured("serial", 10.0), best = measured("bestcase", 5.0), stat = measured("static", 6.0);
    stat.has_overhead = 1;
    stat.overhead_us = 1.0;
    /* One slow chunk: Runtime gives 6.50 us/Loop where the median chunk is 6.00. */
    stat.runtime_us = 6.5;
    stat.runtime_overhead_us = 1.5;
    stat.runtime_efficacy = 5.0 / 6.5 * 100.0;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "   Static OMP  us/Loop: 6.50 (wallclock, in microseconds)\n") != NULL,
       "the us/Loop line is CLOMP 1.2's: Runtime over the subcycles (6.50), not the median chunk (6.00)");
    ok(strstr(text, "   Static OMP  Speedup: 1.5\n") != NULL, "speedup is 1.2's: serial Runtime / schedule Runtime (10 / 6.5)");
    ok(strstr(text, "   Static OMP Efficacy: 76.9% (of bestcase 5.00 us/Loop)\n") != NULL &&
           strstr(text, "   Static OMP Overhead: 1.50 (versus bestcase, in us/Loop)\n") != NULL,
       "efficacy and overhead are 1.2's, from the same Runtime: %s", line_with(" Overhead: "));
    ok(strstr(text, "   Static OMP Med. Ovh: 1.00 us/Loop, no 95% CI: the project's overhead (median chunk minus Bestcase's "
                    "median chunk)\n") != NULL,
       "the project's overhead, from the median chunks, has a line of its own, labelled as such: %s", line_with("Med. Ovh:"));
    stat.paired.order = PAIRED_SEQUENTIAL;   /* the paired overhead too: the project does not quote it */
    stat.paired.blocks = 4;
    stat.paired.shift.estimate = 0.9;
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "Pair Ovh") == NULL && strstr(text, "Ovh. CI") == NULL,
       "no other line gives another overhead estimator:\n%s", text);
    run.detail = 1;
    block(&run, &stat, &serial, &best);
    ok(strstr(line_with("Pair Ovh: "), "0.90 us/Loop") != NULL && strstr(line_with("Pair Ovh: "), "project") == NULL,
       "--detail adds the paired overhead's line, not called the project's: %s", line_with("Pair Ovh: "));
    run.detail = 0;
    stat.paired.order = PAIRED_NOT_MEASURED;
    ok(strstr(text, "   Static OMP   Spread: 5.94 .. 6.06 us/Loop, CV 1%, outliers 0 (4 chunks x 1 round)\n") != NULL,
       "the spread line gives min, max, CV and outliers: %s", line_with("Spread:"));
    ok(strstr(text, "   Static OMP   Median: 6.00 us/Loop, 95% CI 5.99 .. 6.01, within this process\n") != NULL,
       "the median line gives its 95%% interval and says it is within this process: %s", line_with("Median:"));
    ok(strstr(text, "   Static OMP   Cycles: 2000 of CLOMP overhead per parallel for (versus bestcase), core cycles (--ghz)\n") != NULL,
       "1.0 us/Loop of overhead at 2 GHz is 2000 cycles, and the line says which clock counts them: %s", line_with("Cycles:"));
    stat.has_overhead_ci = 1;
    stat.overhead_low = -4.0;
    stat.overhead_high = 6.0;
    block(&run, &stat, &serial, &best);
    /* -8000 .. 12000 cycles at the estimate's digits (10000s), rounded outward: never narrower than the data. */
    ok(strstr(text, "   Static OMP   Cycles: 2000 (95% CI -10000 .. 20000, within this process) of CLOMP overhead") != NULL,
       "an estimate rounded to its interval's digits keeps its first digit, with the interval beside it: %s",
       line_with("Cycles:"));
    stat.has_overhead_ci = 0;
    ok(strstr(text, "noisy") == NULL, "CV 1%% is not noisy");

    stat.stats.cv = 0.25;
    measurement_warnings(&run, &stat);   /* found with the figures, printed with the block */
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "   Static OMP  WARNING: noisy measurement: chunk times vary by CV 25% (> 10%)") != NULL,
       "CV 25%% gets the noisy-measurement warning with its likely causes");

    run.cycles.source = CYCLES_UNAVAILABLE;
    snprintf(run.cycles.why, sizeof run.cycles.why, "no counter here");
    block(&run, &stat, &serial, &best);
    ok(strstr(text, "   Static OMP   Cycles: unavailable (no counter here)\n") != NULL,
       "without a cycle rate the cycles line says unavailable, and why");

    Measurement single = measured("static", 6.0);
    single.stats.n = 1;
    single.stats.has_ci = 0;
    single.has_overhead = 1;
    single.overhead_us = -0.3;
    block(&run, &single, &serial, &best);
    ok(strstr(text, "Spread") == NULL && strstr(text, "Median") == NULL && strstr(text, "noise") == NULL,
       "a single shot (--trials=1) adds no statistics and no noise verdict to the 1.2 lines");
}

static void test_measured_text(void)
{
    char buf[32];
    ok(strcmp(measured_text(buf, sizeof buf, 6.0612, 0.055, 3), "6.06") == 0, "6.0612 +- 0.055 prints as 6.06");
    ok(strcmp(measured_text(buf, sizeof buf, 637.0, 300.0, 0), "600") == 0, "637 +- 300 prints as 600");
    ok(strcmp(measured_text(buf, sizeof buf, 766.4, 2.4, 0), "766") == 0, "766.4 +- 2.4 prints as 766");
    ok(strcmp(measured_text(buf, sizeof buf, 1.23456, 0.0, 2), "1.23") == 0, "no uncertainty: max decimals");
    ok(strcmp(measured_text(buf, sizeof buf, NAN, 1.0, 2), "N/A") == 0, "NaN prints as N/A");
    ok(strcmp(measured_text(buf, sizeof buf, -0.0, 5.0, 0), "0") == 0, "zero prints as 0, never -0");
    ok(strcmp(measured_text(buf, sizeof buf, -0.0, 0.05, 3), "0.00") == 0, "nor -0.00");
    ok(strcmp(measured_text(buf, sizeof buf, 27900.0, 100000.0, 0), "30000") == 0,
       "a nonzero estimate is never rounded to 0: 27900 +- 100000 prints as 30000 (its own first digit)");
    ok(strcmp(measured_text(buf, sizeof buf, 4.0, 45.0, 0), "4") == 0,
       "a positive low end of an interval stays positive: 4 +- 45 prints as 4, not 0");
    ok(strcmp(measured_text(buf, sizeof buf, -0.2, 5.0, 0), "-0.2") == 0, "a small negative value keeps its sign and digit");
    ok(strcmp(measured_text(buf, sizeof buf, 0.004, 0.05, 3), "0.004") == 0, "0.004 +- 0.05 prints as 0.004, not 0.00");
    ok(strcmp(measured_text(buf, sizeof buf, -0.6, 5.0, 0), "-1") == 0, "a negative value that does not round to zero keeps its sign");
}

/* bound_text: an interval's bounds rounded outward at the estimate's digits, against a brute-force
 * check: the printed low never above the bound, the printed high never below it, each within one
 * unit of the digits printed, and neither crossing 0. */
static void test_bound_text(void)
{
    char buf[64];
    ok(strcmp(bound_text(buf, sizeof buf, 61.9, 103.8, 3, -1), "0") != 0 &&
       strcmp(bound_text(buf, sizeof buf, 61.9, 103.8, 3, -1), "60") == 0, "61.9 with +- 104 prints as 60, not 100");
    ok(strcmp(bound_text(buf, sizeof buf, 269.5, 103.8, 3, +1), "300") == 0, "269.5 with +- 104 prints as 300");
    ok(strcmp(bound_text(buf, sizeof buf, 4.0, 45.0, 0, -1), "4") == 0, "a positive low bound never prints as 0");
    ok(strcmp(bound_text(buf, sizeof buf, -40.0, 300.0, 0, -1), "-100") == 0, "-40 with +- 300 prints as -100 (outward), never 0");
    ok(strcmp(bound_text(buf, sizeof buf, 2.0, 0.5, 3, -1), "2.0") == 0, "a bound already at the digits stays");
    int bad = 0;
    unsigned seed = 12345;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        double b = ((double)(seed % 2000001u) - 1000000.0) / pow(10.0, (double)(seed % 7u));
        seed = seed * 1103515245u + 12345u;
        double u = (double)(seed % 100000u + 1u) / pow(10.0, (double)(seed % 6u));
        double lo = strtod(bound_text(buf, sizeof buf, b, u, 3, -1), NULL);
        double hi = strtod(bound_text(buf, sizeof buf, b, u, 3, +1), NULL);
        if (lo > b + 1e-9 * fabs(b) || hi < b - 1e-9 * fabs(b) || (b > 0.0 && lo <= 0.0) || (b < 0.0 && hi >= 0.0))
            bad++;
    }
    ok(bad == 0, "20,000 random bounds: low printed <= bound <= high printed, neither crossing 0 (%d wrong)", bad);
}

/* summarize_measurement: us/Loop is the median chunk over all rounds; the
 * overhead is the median over rounds of (median chunk - bestcase's median
 * chunk of the same round). */
static void test_summarize(void)
{
    /* us/Loop of a one-iteration chunk = seconds * 1e6 / 10 */
    double best_s[12] = {50e-6, 50e-6, 52e-6, 90e-6, 60e-6, 60e-6, 60e-6, 60e-6, 40e-6, 41e-6, 42e-6, 43e-6};
    double stat_s[12] = {55e-6, 56e-6, 57e-6, 58e-6, 66e-6, 64e-6, 65e-6, 200e-6, 46e-6, 47e-6, 48e-6, 49e-6};
    double best_r[3], stat_r[3], best_m[3], stat_m[3];
    Measurement best = measured("bestcase", 0.0), stat = measured("static", 0.0);
    best.chunk_seconds = best_s;
    best.round_seconds = best_r;
    best.round_median_us = best_m;
    stat.chunk_seconds = stat_s;
    stat.round_seconds = stat_r;
    stat.round_median_us = stat_m;
    best.rounds_done = stat.rounds_done = 3;
    for (int r = 0; r < 3; r++) {
        best_r[r] = best_s[4 * r] + best_s[4 * r + 1] + best_s[4 * r + 2] + best_s[4 * r + 3];
        stat_r[r] = stat_s[4 * r] + stat_s[4 * r + 1] + stat_s[4 * r + 2] + stat_s[4 * r + 3];
    }
    summarize_measurement(&best, NULL);
    summarize_measurement(&stat, &best);
    /* Round medians: best 5.1, 6.0, 4.15; static 5.65, 6.55, 4.75. Differences
     * 0.55, 0.55, 0.60: median 0.55. All 12 static values sorted: 4.6 4.7 4.8
     * 4.9 5.5 5.6 5.7 5.8 6.4 6.5 6.6 20.0: median (5.6 + 5.7) / 2 = 5.65. */
    ok(fabs(best.round_median_us[0] - 5.1) < 1e-9 && fabs(best.round_median_us[2] - 4.15) < 1e-9,
       "each round's median chunk us/Loop (5.1 and 4.15)");
    ok(fabs(stat.us - 5.65) < 1e-9, "us/Loop is the median chunk over all rounds: 5.65 (got %.6f)", stat.us);
    ok(stat.has_overhead && fabs(stat.overhead_us - 0.55) < 1e-9,
       "the overhead is the median of the per-round differences: 0.55 (got %.6f)", stat.overhead_us);
    /* mean 85.1 / 12 = 7.092, sd = sqrt(198.1 / 11) = 4.244: 20.0 lies 12.9 > 3 sd away. */
    ok(stat.stats.n == 12 && stat.stats.outliers == 1 && fabs(stat.stats.max - 20.0) < 1e-9,
       "statistics cover every chunk of every round (12, max 20.0, which is the one outlier)");
    ok(fabs(stat.seconds - stat_r[0]) < 1e-12, "Runtime is the median round's total (%.6f s)", stat.seconds);
    ok(!stat.has_overhead_ci && stat.has_round_range && fabs(stat.round_range_low - 0.55) < 1e-9 &&
           fabs(stat.round_range_high - 0.60) < 1e-9,
       "3 rounds give no 95%% interval of the paired overhead, but its range over rounds: 0.55 .. 0.60");
    /* Efficacy per round: 5.1/5.65, 6.0/6.55, 4.15/4.75 = 90.27%, 91.60%, 87.37%: median 90.27%. */
    ok(fabs(stat.efficacy - 5.1 / 5.65 * 100.0) < 1e-9, "with rounds the efficacy is the median of the per-round ratios (%.2f%%)",
       stat.efficacy);
}

static void name_row(FILE *out, int i, const void *ctx)
{
    (void)ctx;
    fprintf(out, "row %d", i);
}

/* summary_of(v, n): the summary line print_table_summary writes. */
static const char *summary_of(const double *v, int n)
{
    FILE *out = fmemopen(text, sizeof text, "w");
    print_table_summary(out, "Label", v, n, name_row, NULL);
    fclose(out);
    return text;
}

/* Beyond 16 rows the text summarises a table: min, median, max (each with
 * the first row holding it) and the outliers; the expected lines are worked
 * out by hand. */
static void test_table_summary(void)
{
    /* Ten equal values and one apart: MAD 0, so the one that differs is named. */
    double equal[11] = {4, 4, 4, 4, 4, 4, 9, 4, 4, 4, 4};
    ok(strcmp(summary_of(equal, 11), "            Label: min 4 (row 0), median 4, max 9 (row 6); outliers: row 6 (9)\n") == 0,
       "one row of eleven that differs from equal others is named as the outlier");
    /* 1..10 and 100: median 6, deviations 5 4 3 2 1 0 1 2 3 4 94 -> MAD 3, cut 3.5 x 1.4826 x 3 = 15.6. */
    double spread[11] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100};
    ok(strcmp(summary_of(spread, 11), "            Label: min 1 (row 0), median 6, max 100 (row 10); outliers: row 10 (100)\n") == 0,
       "a spread table names only the row beyond 3.5 scaled MADs");
    /* An even count: the median is the mean of the middle two; nothing stands out. */
    double even[4] = {2, 1, 4, 3};
    ok(strcmp(summary_of(even, 4), "            Label: min 1 (row 1), median 2.5, max 4 (row 2)\n") == 0,
       "an even count's median is the mean of the middle two, and no outlier is named");
    /* Ten rows of 5 and two of 1: MAD 0, the two are named. */
    double two[12];
    for (int i = 0; i < 12; i++)
        two[i] = i < 2 ? 1 : 5;
    ok(strcmp(summary_of(two, 12), "            Label: min 1 (row 0), median 5, max 5 (row 2); outliers: row 0 (1), row 1 (1)\n") == 0,
       "two rows apart from ten equal ones are the outliers");
    /* Eleven 1s and nine 7s: median 1, MAD 0, nine outliers: three named, six counted. */
    double most[20];
    for (int i = 0; i < 20; i++)
        most[i] = i < 11 ? 1 : 7;
    ok(strstr(summary_of(most, 20), "; outliers: row 11 (7), row 12 (7), row 13 (7) and 6 more\n") != NULL,
       "at most 3 outliers are named, the rest counted");
}

int main(void)
{
    test_noise_notes();
    test_round_range_noise();
    test_lines_and_warnings();
    test_measured_text();
    test_bound_text();
    test_summarize();
    test_table_summary();
    return done_testing();
}
