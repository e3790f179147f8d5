/* Figures a reviewer can sign (issue 35): a measurement whose mean and
 * median disagree by more than CLOMP_MEAN_MEDIAN_FACTOR, or that ran faster
 * than Bestcase OMP beyond its interval, is not a result, and every writer
 * says so; the noise census's busy-machine rule; and a verdict that never
 * contradicts itself. The measurements are built from chunk timings by hand
 * and summarized by the product's own summarize_measurement; the oracles
 * (means, medians, which rule applies) are computed here from those
 * timings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/schedule.h"
#include "measure/noise.h"
#include "measure/summarize.h"
#include "report/csv_report.h"
#include "report/json.h"
#include "report/json_sections.h"
#include "report/text_report.h"
#include "tap.h"

#define CHUNKS 20
#define SUBCYCLES_PER_CHUNK 10

static long ends[CHUNKS];
static char *text;
static size_t text_size;

typedef struct Timed {
    Measurement m;
    double chunk[CHUNKS], round[1], round_median[1];
} Timed;

static RunSetup setup(void)
{
    RunSetup run;
    memset(&run, 0, sizeof run);
    run.exe = "clomp";
    run.numThreads = 2;
    run.numParts = 64;
    run.zonesPerPart = 100;
    run.subcycles = CHUNKS * SUBCYCLES_PER_CHUNK;
    run.trials = CHUNKS;
    run.chunk_end = ends;
    run.rounds = 1;
    run.cycles.source = CYCLES_GIVEN;
    run.cycles.ghz = 2.0;
    return run;
}

/* A measurement of CHUNKS chunks at `us` us/Loop each (spread by 0.1% per
 * chunk, so that intervals exist), chunk `slow` (if >= 0) taking `slow_s`
 * seconds instead; summarized against `bestcase`. */
static void timed(Timed *t, const char *key, double us, int slow, double slow_s, const Timed *bestcase)
{
    memset(t, 0, sizeof *t);
    t->m.schedule = find_schedule(key);
    t->m.selected = 1;
    t->m.chunks = CHUNKS;
    t->m.chunk_end = ends;
    t->m.rounds_done = 1;
    t->m.team.threads = 2;
    t->m.chunk_seconds = t->chunk;
    t->m.round_seconds = t->round;
    t->m.round_median_us = t->round_median;
    for (int c = 0; c < CHUNKS; c++) {
        t->chunk[c] = c == slow ? slow_s : us * (1.0 + 0.001 * c) * SUBCYCLES_PER_CHUNK * 1e-6;
        t->round[0] += t->chunk[c];
    }
    summarize_measurement(&t->m, bestcase != NULL ? &bestcase->m : NULL);
}

/* The oracle: mean us/Loop over the chunks (Runtime over the subcycles). */
static double mean_us(const Timed *t)
{
    return t->round[0] * 1e6 / (CHUNKS * SUBCYCLES_PER_CHUNK);
}

static FILE *begin(void)
{
    free(text);
    text = NULL;
    return open_memstream(&text, &text_size);
}

static int has(const char *s)
{
    return text != NULL && strstr(text, s) != NULL;
}

static Measurement results[3];   /* serial, bestcase, static: the record's */

static RunRecord record_of(const RunSetup *run, const Timed *serial, const Timed *best, const Timed *stat)
{
    results[0] = serial->m;
    results[1] = best->m;
    results[2] = stat->m;
    RunRecord r;
    memset(&r, 0, sizeof r);
    r.run = run;
    r.results = results;
    r.count = 3;
    r.host = "host";
    r.started = "now";
    return r;
}

/* Suite run 11 of issue 35: Static OMP's Runtime 40x Serial's while its
 * median chunk beat Bestcase's by 4.3 us/Loop. */
static void test_collapse(void)
{
    RunSetup run = setup();
    Timed serial, best, stat;
    timed(&serial, "serial", 12.0, -1, 0.0, NULL);
    timed(&best, "bestcase", 12.0, -1, 0.0, NULL);
    timed(&stat, "static", 7.7, 7, 0.075, &best);
    double ratio = mean_us(&stat) / stat.m.us;
    ok(ratio > CLOMP_MEAN_MEDIAN_FACTOR && stat.m.invalid,
       "a Runtime us/Loop %.1fx the median chunk (oracle: mean %.1f, median %.2f) is invalid", ratio, mean_us(&stat),
       stat.m.us);
    ok(strstr(stat.m.invalid_reason, "the mean over its chunks") != NULL && strstr(stat.m.invalid_reason, "factor 2") != NULL,
       "and says why, with the factor: %s", stat.m.invalid_reason);
    ok(!serial.m.invalid && !best.m.invalid, "steady measurements are valid");

    FILE *out = begin();
    print_block_results(out, &run, &stat.m, &serial.m, &best.m);
    fclose(out);
    ok(has("   Static OMP  INVALID: not a result: its Runtime us/Loop"), "its block has an INVALID line");
    ok(has("   Static OMP  Speedup: N/A (not a result: Static OMP is invalid)") &&
           has("   Static OMP Efficacy: N/A (not a result") && has("   Static OMP Overhead: N/A (not a result"),
       "CLOMP 1.2's Speedup, Efficacy and Overhead lines keep their place and read N/A");
    ok(has("   Static OMP  Runtime: ") && has("   Static OMP  us/Loop: "), "its Runtime and us/Loop (measured times) stay");
    ok(!has("Med. Ovh: -") && !has("Ovh. CI:") && !has("Cycles:"), "no overhead, interval or cycle count of it is printed");

    RunRecord r = record_of(&run, &serial, &best, &stat);
    out = begin();
    print_run_end(out, &r);
    print_summary(out, &r);
    fclose(out);
    ok(has("INVALID: Static OMP is not a result: ") && strstr(text, "INVALID: ") < strstr(text, "----------- Comma"),
       "right before the summary, a line names the invalid measurement");
    ok(strstr(text, "INVALID: ") == strstr(text, "INVALID: Static OMP") && strstr(text, "\n----------- Comma") ==
           strchr(strstr(text, "INVALID: Static OMP"), '\n'), "and only it (the valid ones are not named)");
    out = begin();
    print_summary(out, &r);
    fclose(out);
    ok(!has("INVALID"), "the summary block itself (all --quiet prints) keeps CLOMP 1.2's lines only");
    ok(has("\nSpeedup,     1.0,     1.0,     N/A\n") && has("\nEfficacy,    N/A,   100.0%,     N/A\n") &&
           has("\nOverhead,    N/A,    0.00,     N/A\n"),
       "the summary's Speedup, Efficacy and Overhead of Static OMP read N/A in their columns:\n%s", text);
    ok(has(", N/A, 1.0, N/A, N/A, N/A, N/A, N/A, N/A\n"), "so do its CORAL RFP figures (Static overhead, speedup)");

    out = begin();
    write_csv_report(out, &r);
    fclose(out);
    /* The columns appended for issue 35: adjacent, after CLOMP's older ones
     * (later issues append theirs after them). */
    char *header_end = strchr(text, '\n');
    char *valid_at = strstr(text, ",valid,invalid_reason");
    ok(header_end != NULL && valid_at != NULL && valid_at < header_end &&
           (valid_at[strlen(",valid,invalid_reason")] == ',' || valid_at + strlen(",valid,invalid_reason") == header_end),
       "the CSV appends the columns valid and invalid_reason");
    int valid_column = 0;
    for (const char *c = text; valid_at != NULL && c <= valid_at; c++)
        valid_column += *c == ',';
    char *last = strstr(text, "\nstatic,");
    ok(last != NULL && strstr(last, ",0,\"its Runtime us/Loop ") != NULL, "Static OMP's CSV row: valid 0 and the reason");
    /* Bestcase's row, cell by cell (quotes respected) to the valid column. */
    const char *row = strstr(text, "\nbestcase,");
    char cell[2][16] = {"?", "?"};
    if (row != NULL) {
        int column = 0, quoted = 0;
        size_t len = 0;
        for (const char *c = row + 1; *c != '\0' && *c != '\n' && column <= valid_column + 1; c++) {
            if (*c == '"')
                quoted = !quoted;
            else if (*c == ',' && !quoted) {
                column++;
                len = 0;
                if (column >= valid_column && column <= valid_column + 1)
                    cell[column - valid_column][0] = '\0';
            } else if (column >= valid_column && column <= valid_column + 1 && len + 1 < sizeof cell[0]) {
                cell[column - valid_column][len++] = *c;
                cell[column - valid_column][len] = '\0';
            }
        }
    }
    ok(strcmp(cell[0], "1") == 0 && cell[1][0] == '\0', "Bestcase OMP's row: valid 1, no reason (got '%s', '%s')",
       cell[0], cell[1]);

    out = begin();
    JsonWriter w;
    json_start(&w, out);
    write_json_measurement(&w, &r, &results[2]);
    json_finish(&w);
    fclose(out);
    ok(has("\"valid\": false") && has("\"invalid_reason\": \"its Runtime us/Loop") && has("\"speedup\": null") &&
           has("\"efficacy_percent\": null") && has("\"overhead_us_per_loop\": null") && has("\"overhead_ci_95\": null"),
       "the JSON: valid false, the reason, no speedup, efficacy, overhead or interval");

    out = begin();
    print_verdict(out, &r);
    fclose(out);
    ok(has("Not a result: Static OMP is invalid") && !has("pays") && !has("speed up") && !has("Speedup:"),
       "the verdict says the Static OMP figures are not a result and draws no speedup conclusion:\n%s", text);
}

static void test_faster_than_bestcase(void)
{
    Timed best, stat, slower;
    timed(&best, "bestcase", 12.0, -1, 0.0, NULL);
    timed(&stat, "static", 7.7, -1, 0.0, &best);
    ok(stat.m.has_overhead_ci && stat.m.overhead_high < 0.0 && stat.m.invalid &&
           strstr(stat.m.invalid_reason, "faster than Bestcase OMP beyond its 95% interval") != NULL,
       "a schedule faster than Bestcase beyond its interval (%.3g .. %.3g) is invalid: %s", stat.m.overhead_low,
       stat.m.overhead_high, stat.m.invalid_reason);
    timed(&slower, "static", 12.5, -1, 0.0, &best);
    ok(!slower.m.invalid && slower.m.invalid_reason[0] == '\0', "one slower than Bestcase, steady, is valid");
    /* 1.9x: a noisy run, but its mean and median still describe it. */
    Timed noisy;
    timed(&noisy, "static", 13.0, 3, 0.0, &best);
    noisy.chunk[3] = 13.0 * SUBCYCLES_PER_CHUNK * 1e-6 + (1.9 - 1.0) * 13.0 * CHUNKS * SUBCYCLES_PER_CHUNK * 1e-6;
    noisy.round[0] = 0.0;
    for (int c = 0; c < CHUNKS; c++)
        noisy.round[0] += noisy.chunk[c];
    summarize_measurement(&noisy.m, &best.m);
    ok(!noisy.m.invalid, "a mean %.2fx the median (below the factor) is still a result", mean_us(&noisy) / noisy.m.us);
}

/* Parallel For's chunk is its parallel for's time minus the same delays run
 * serially: below 0 beyond its interval it is no cost at all; a median below
 * 0 whose interval reaches 0 is a cost not told from 0, still a result. The
 * oracle for the second: 11 chunks below 0 and 9 above, so the median is
 * below 0 and its interval (order statistics of 20 values) reaches 0. */
static void test_delay_probe_below_zero(void)
{
    Timed below, straddling;
    timed(&below, "parallel_for", -0.4, -1, 0.0, NULL);
    ok(below.m.stats.has_ci && below.m.stats.ci_high < 0.0 && below.m.invalid &&
           strstr(below.m.invalid_reason, "faster than its serial reference") != NULL,
       "a Parallel For whose chunks lie below 0 beyond their interval (%.3g .. %.3g) is invalid: %s",
       below.m.stats.ci_low, below.m.stats.ci_high, below.m.invalid_reason);
    timed(&straddling, "parallel_for", 0.1, -1, 0.0, NULL);
    straddling.round[0] = 0.0;
    for (int c = 0; c < CHUNKS; c++) {
        straddling.chunk[c] = (c < 11 ? -0.01 * (c + 1) : 0.01 * (c - 10)) * SUBCYCLES_PER_CHUNK * 1e-6;
        straddling.round[0] += straddling.chunk[c];
    }
    summarize_measurement(&straddling.m, NULL);
    ok(straddling.m.us < 0.0 && straddling.m.stats.ci_high >= 0.0 && !straddling.m.invalid,
       "one with a median below 0 (%.3g) whose interval reaches 0 (%.3g .. %.3g) is still a result",
       straddling.m.us, straddling.m.stats.ci_low, straddling.m.stats.ci_high);
    Timed serial;
    timed(&serial, "serial", -0.4, -1, 0.0, NULL);
    ok(!serial.m.invalid || strstr(serial.m.invalid_reason, "serial reference") == NULL,
       "the rule is the delay probes': a schedule that runs no delays is not judged by it");
}

static NoiseCensus census;

static void test_busy_rule(void)
{
    memset(&census, 0, sizeof census);
    census.enabled = census.probed = 1;
    census.threads = 2;
    census.thread[0] = (NoiseThread){.cpu = 0, .lost_fraction = 0.05, .largest_detour_us = 300.0};
    census.thread[1] = (NoiseThread){.cpu = 1, .lost_fraction = 0.52, .largest_detour_us = 12000.0};
    judge_busy(&census);
    ok(census.busy_judged && census.busy && census.busy_threshold == NOISE_BUSY_LOST_SHARE,
       "a thread that lost 52%% of the probe makes the machine busy (threshold %.2f)", census.busy_threshold);
    ok(strstr(census.busy_reason, "thread 1 (CPU 1) lost 52.0%") != NULL && strstr(census.busy_reason, "25%") != NULL,
       "the reason names the thread, its CPU, its loss and the threshold: %s", census.busy_reason);
    census.thread[1].lost_fraction = 0.2;
    judge_busy(&census);
    ok(census.busy_judged && !census.busy && census.busy_reason[0] == '\0', "20%% lost is below the threshold: not busy");
    census.probed = 0;
    judge_busy(&census);
    ok(!census.busy_judged, "without the probe nothing is judged (JSON busy null)");

    RunSetup run = setup();
    RunRecord r;
    memset(&r, 0, sizeof r);
    r.run = &run;
    r.noise = &census;
    FILE *out = begin();
    JsonWriter w;
    json_start(&w, out);
    json_object_begin(&w, NULL);
    write_json_noise(&w, &r);
    json_object_end(&w);
    json_finish(&w);
    fclose(out);
    ok(has("\"busy\": null") && has("\"busy_threshold\": 0.25") && has("\"busy_reason\": null"),
       "the JSON's noise_census: busy null when not probed, the threshold, no reason:\n%s", text);
    census.probed = 1;
    census.thread[1].lost_fraction = 0.52;
    judge_busy(&census);
    out = begin();
    json_start(&w, out);
    json_object_begin(&w, NULL);
    write_json_noise(&w, &r);
    json_object_end(&w);
    json_finish(&w);
    fclose(out);
    ok(has("\"busy\": true") && has("\"busy_reason\": \"the noise census's probe: thread 1"),
       "busy true with its reason when a thread lost more than the threshold");
}

/* The verdict's first line after its header, and whether it contradicts itself. */
static void verdict_of(RunRecord *r)
{
    FILE *out = begin();
    print_verdict(out, r);
    fclose(out);
}

static void test_verdict(void)
{
    RunSetup run = setup();
    Timed serial, best, stat;
    timed(&serial, "serial", 10.0, -1, 0.0, NULL);
    timed(&best, "bestcase", 8.0, -1, 0.0, NULL);
    timed(&stat, "static", 14.0, -1, 0.0, &best);   /* slower than Serial Ref: no speed-up */
    stat.m.noisy = 1;                                 /* its chunks vary by more than 10% */
    RunRecord r = record_of(&run, &serial, &best, &stat);
    verdict_of(&r);
    ok(has("no conclusion about this 6400-zone loop (too noisy") && has("Quiet enough: no") && !has("does NOT") &&
           !has("pays."),
       "a noisy run with a speedup below 1 draws no conclusion, says it was too noisy, and never 'does NOT pay':\n%s", text);
    results[2].noisy = 0;
    verdict_of(&r);
    ok(has("threading this 6400-zone loop does NOT pay") && has("Quiet enough: ") && !has("Quiet enough: no") &&
           !has("too noisy"),
       "a steady run whose speedup interval lies below 1 says threading the loop does not pay:\n%s", text);

    census.busy_judged = census.busy = 1;
    snprintf(census.busy_reason, sizeof census.busy_reason, "thread 1 lost 52%%");
    r.noise = &census;
    verdict_of(&r);
    const char *first = strchr(text, '\n');
    ok(first != NULL && strncmp(first + 1, "Busy:         this machine was busy (thread 1 lost 52%), so these figures "
                                           "measure the contention, not OpenMP: no conclusion.\nWhat to do: ", 126) == 0,
       "with the census busy, the answer says so in one sentence with the census's reason, then what to do:\n%s", text);
    ok(!has("pay") && !has("speed up") && !has("Speedup:") && !has("Quiet enough") && !has("LLNL target"),
       "and states no speedup conclusion, no noise judgement and no LLNL verdict");
    census.busy = 0;
    verdict_of(&r);
    ok(!has("busy") && has("does NOT pay"), "a census that found the machine quiet leaves the answer as it was");
}

/* CLOMP 1.2's overhead (Runtime minus Bestcase's Runtime) gets an interval
 * of its own, from the chunks' rates (issue 44): one slow chunk moves the
 * figure and widens that interval; chunks alike keep it narrow around it. */
/* timed(), with the chunks but `slow` scattered by -0.2 .. +0.2% in no
 * order instead of timed()'s steady drift (one long correlated run). */
static void scattered(Timed *t, const char *key, double us, int slow, double slow_s, const Timed *bestcase)
{
    timed(t, key, us, slow, slow_s, bestcase);
    t->round[0] = 0.0;
    for (int c = 0; c < CHUNKS; c++) {
        if (c != slow)
            t->chunk[c] = us * (1.0 + 0.001 * (double)((c * 7) % 5 - 2)) * SUBCYCLES_PER_CHUNK * 1e-6;
        t->round[0] += t->chunk[c];
    }
    summarize_measurement(&t->m, bestcase != NULL ? &bestcase->m : NULL);
}

static void test_runtime_overhead_interval(void)
{
    Timed best, stat;
    scattered(&best, "bestcase", 8.0, -1, 0.0, NULL);
    scattered(&stat, "static", 8.5, -1, 0.0, &best);
    double figure = mean_us(&stat) - mean_us(&best);
    ok(stat.m.has_runtime_overhead_ci && stat.m.runtime_overhead_low <= figure && figure <= stat.m.runtime_overhead_high &&
           stat.m.runtime_overhead_low > 0.4 && stat.m.runtime_overhead_high < 0.6,
       "chunks alike: 1.2's overhead %.4f lies in its own interval %.4f .. %.4f, which is narrow", figure,
       stat.m.runtime_overhead_low, stat.m.runtime_overhead_high);
    /* Bestcase's chunk 19 takes 20 chunks' time: its Runtime is 2x its median, 1.2's overhead negative. */
    scattered(&best, "bestcase", 8.0, CHUNKS - 1, 8.0 * CHUNKS * SUBCYCLES_PER_CHUNK * 1e-6, NULL);
    scattered(&stat, "static", 8.5, -1, 0.0, &best);
    figure = mean_us(&stat) - mean_us(&best);
    ok(figure < 0.0 && stat.m.has_runtime_overhead_ci && stat.m.runtime_overhead_low <= figure &&
           stat.m.runtime_overhead_high >= 0.0,
       "one slow Bestcase chunk: 1.2's overhead %.3f has an interval %.3f .. %.3f that reaches 0", figure,
       stat.m.runtime_overhead_low, stat.m.runtime_overhead_high);
}

int main(void)
{
    for (int c = 0; c < CHUNKS; c++)
        ends[c] = (c + 1) * SUBCYCLES_PER_CHUNK;
    test_collapse();
    test_faster_than_bestcase();
    test_delay_probe_below_zero();
    test_busy_rule();
    test_verdict();
    test_runtime_overhead_interval();
    free(text);
    return done_testing();
}
