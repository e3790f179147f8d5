/* clomp-stats: the statistics of timing/ for the shell drivers, so that the
 * suite's between-process summary and run_clomp.sh --compare use the same
 * tested code as clomp itself. Built by `make clomp-stats` into $(BUILD).
 *
 *   clomp-stats summary V1 V2 ...
 *       n, median, min, max, ci_low, ci_high, ci_coverage (95% order-statistic
 *       interval of the median; NA below 6 values), range_coverage (how
 *       often [min, max] holds the median: 1 - 2^(1-n)), then median, min,
 *       max, ci_low, ci_high as text to the precision the spread supports.
 *   clomp-stats compare [--level L] A1,A2,... B1,B2,...
 *       n_a, n_b, median_a, median_b, scale (ratio or difference),
 *       estimate, low, high, coverage (NA without an interval), u, p,
 *       test (exact or normal), detected (1 when the interval at level L,
 *       default 0.95, excludes "no change" and p < 1 - L), then estimate, low, high as text (ratios
 *       to three significant digits, up to five when a ratio other than 1 would read 1.00 or the
 *       interval's ends would read alike; differences to their uncertainty).
 *       Then the prediction interval for one more value (prediction_low, prediction_high,
 *       prediction_coverage: order statistics j and n+1-j cover a new value with probability
 *       (n+1-2j)/(n+1); below 39 values [min, max] and its coverage (n-1)/(n+1)) and
 *       processes_for_prediction (values a 95% prediction interval needs: 39).
 *   clomp-stats paired [--alpha A] [--looks N1,N2,...] [--tests M] A1,... B1,...
 *       the paired comparison of B with A (pair i: A_i, B_i; stats/paired_answer.c says
 *       every field): Hodges-Lehmann shift of B - A, its signed-rank interval and exact
 *       p-value, the group-sequential level with --looks, the difference detected with 80%
 *       power and the pairs 5% of A's median needs, Brunner-Munzel's P(B > A).
 *   clomp-stats pilot-n PCT FLOOR CAP V1 V2 ...
 *       stage 1 of run_clomp.sh --replicates auto (timing/replication.c): from the
 *       pilot's values V, the fresh processes whose 95% interval of the median is
 *       expected to reach the smaller of PCT% of |median| and FLOOR (a number in
 *       the figure's unit, or none): n, median, scale (1.4826 x MAD), wanted,
 *       fewest (with an interval: 6), needed (NA: never), processes (needed within
 *       [min(fewest, CAP), CAP]), expected_half_width (at processes), reachable (0/1),
 *       half_width (the larger side of the values' own 95% interval of the median; NA
 *       below 6), within (1 when it is at most wanted) and planning_scale (what the plan
 *       used: the 80% upper bound of the scale made unbiased for n; timing/replication.h).
 *   clomp-stats summary|pilot-n ... --table CSV INPUT RUNS KEY COLUMN
 *       the values (instead of V1 V2 ...) from a suite's <base>.csv by column name
 *       (stats/suite_table.c): COLUMN of the OK runs among RUNS (space-separated) of
 *       INPUT ("T A P Z S F TS POLICY") and measurement KEY, not marked valid 0; the
 *       answer starts with runs (those runs, whatever their figures), and is only
 *       runs and n 0 when no row gives a value.
 *   clomp-stats replicates parse|decide|stop|recorded ...
 *       run_clomp.sh --replicates auto's decisions, as the driver applies and says them
 *       (stats/replicates_answer.c says each action).
 *   clomp-stats holm ALPHA P1,P2,...
 *       Holm's procedure: m, rejected, reject (0/1 per p), adjusted (Holm-adjusted p).
 *   clomp-stats judge BOUND NOMINAL_GHZ CORE_MIN CORE_MAX LOW HIGH [PROCESSES]
 *       LLNL's target BOUND judged by clomp's rule (stats/judge_answer.c says how).
 *   clomp-stats comparison-json --level L < RECORDS
 *       the document run_clomp.sh --compare writes (docs/compare.md), with
 *       report/json.c's writer, to stdout: each figure is compared here as
 *       by `compare`, from tab-separated records on stdin, one per line
 *       (the last field of each takes the rest of the line):
 *         date TEXT | host TEXT | arguments TEXT | replicates N |
 *         order NAME (ABBA) | sequence SIDES (e.g. ABBAAB...: the sides in the
 *         order their processes ran) | figures_compared M |
 *         side A|B SPEC WHAT BINARY LD_LIBRARY_PATH_FIRST (empty: none)
 *             RUNTIME_PATH RUNTIME_VERSION |
 *         setting A|B VAR VALUE |
 *         figure NAME A1,A2,... B1,B2,... VERDICT |
 *         dropped KEY A|B PROCESSES REASON (a side's processes that could give KEY and did not)
 *
 *   clomp-stats holm --json ALPHA P1 P2 ...
 *       Holm's step-down procedure (timing/series.c) on the p-values of a
 *       family at family-wise level ALPHA: m, alpha, rejections, then per
 *       p-value in the order given: rejected (0/1), adjusted (the Holm-adjusted
 *       p-value), step_level (1 - ALPHA / (m - rank + 1), the confidence
 *       level its step tests at; rank 1 is the smallest p, tied p-values share
 *       the first tie's) and interval_level (the level its interval is drawn
 *       at: step_level when rejected, else 1 - ALPHA / m). The --compare
 *       report and the buyer's table read it (stats_helper.holm): the one Holm.
 *
 *   clomp-stats batch < REQUESTS
 *       every request of a report in one process: one a line, the words after "clomp-stats"
 *       separated by tabs, each answered as it alone would be, then "#end STATUS" (batch(),
 *       below; the results package's one way in: results/clomp_results/core/stats_helper.py).
 *
 *   clomp-stats outliers < REQUEST
 *       the outlier rule (timing/outlier_rule.h, the MPI rank-outlier table's) for many
 *       distributions at once, answered as JSON lines: stats/outlier_answer.c says the
 *       request and every field. The cluster report's (results/clomp_results/cluster/cluster.py).
 *
 * summary and compare print one tab-separated line, or with --json right
 * after the subcommand one JSON object naming each field as above (n, median,
 * min, max, ci_low, ci_high, ci_coverage, range_coverage, median_text, ...;
 * n_a, n_b, median_a, median_b, scale, estimate, ci_low, ci_high,
 * ci_coverage, u, p, test, detected, estimate_text, ci_low_text,
 * ci_high_text): NA becomes null. Readers in Python read it by name; the
 * tab form stays for the shell drivers. Exit status 2 with a one-line
 * message on bad input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/decision.h"
#include "../timing/replication.h"
#include "../timing/statistics.h"
#include "answer_fields.h"
#include "batch.h"
#include "figure_comparison.h"
#include "suite_table.h"

/* A ratio to DIGITS significant digits (3: 0.0520, 1.04, 12.0, 180) into
 * TEXT: a +4% change reads 1.04, and an interval of ratios can span
 * decades. A value that is not 1 but would read 1.00 gets up to two more
 * digits (1.004), so a detected change never reads as no change. */
static void format_ratio(char *text, size_t size, double v, int digits)
{
    if (isnan(v) || !(v > 0.0)) {
        snprintf(text, size, "NA");
        return;
    }
    int magnitude = (int)floor(log10(v));
    do {
        int decimals = digits - 1 - magnitude;
        snprintf(text, size, "%.*f", decimals < 0 ? 0 : decimals, v);
        digits++;
    } while (v != 1.0 && strtod(text, NULL) == 1.0 && digits <= 5);
}

/* Estimate, low and high of a ratio as text: three significant digits, or
 * up to five when the interval's two ends would otherwise read alike. */
static void ratio_fields(double estimate, double low, double high)
{
    char e[64], l[64], h[64];
    int digits = 3;
    do {
        format_ratio(e, sizeof e, estimate, digits);
        format_ratio(l, sizeof l, low, digits);
        format_ratio(h, sizeof h, high, digits);
    } while (low < high && strcmp(l, h) == 0 && ++digits <= 5);
    field_raw("estimate_text", e, 1);
    field_raw("ci_low_text", l, 1);
    field_raw("ci_high_text", h, 1);
}

/* The values of ARGS into values[MAX_VALUES]: their count, or -1 after saying which one (for
 * subcommand WHAT) is not a number or one too many. */
static long parse_values(const char *what, int count, char **args, double *values)
{
    if (count > MAX_VALUES) {   /* not "'20.1' is not a number" (issue 45): too many values, said so */
        fprintf(stderr, "clomp-stats: %s: %d values, over the bound of %d\n", what, count, MAX_VALUES);
        return -1;
    }
    for (long n = 0; n < count; n++)
        if (parse_value(args[n], &values[n]) != 0) {
            fprintf(stderr, "clomp-stats: %s: '%s' is not a number\n", what, args[n]);
            return -1;
        }
    return count;
}

/* values_of's answer when a table gave no value: the answer (runs, n 0) is written, nothing to judge. */
enum { ANSWERED = -2 };

/* The values of subcommand WHAT: ARGS, or with --table CSV INPUT RUNS KEY COLUMN the suite
 * table's (stats/suite_table.c), answered first as "runs": the target processes among RUNS.
 * -1 after a one-line error; ANSWERED when the table gave none. */
static long values_of(const char *what, int count, char **args, double *values)
{
    long runs;
    if (count < 1 || strcmp(args[0], "--table") != 0)
        return parse_values(what, count, args, values);
    if (count != 6) {
        fprintf(stderr, "clomp-stats: %s: usage: --table CSV INPUT RUNS KEY COLUMN\n", what);
        return -1;
    }
    long n = table_values(args[1], args[2], args[3], args[4], args[5], values, &runs);
    if (n >= 0)
        field_long("runs", runs);
    if (n == 0) {   /* from a table, no values is an answer: no figure to judge */
        field_long("n", 0);
        answer_end();
        return ANSWERED;
    }
    return n;
}

static int summary(int argc, char **argv)
{
    static double values[MAX_VALUES];
    long n = values_of("summary", argc, argv, values);
    if (n == ANSWERED)
        return 0;
    if (n < 0)
        return 2;
    if (n == 0) {
        fprintf(stderr, "clomp-stats: summary: no values\n");
        return 2;
    }
    SampleStats s = summarize_samples(values, n, CLOMP_CI_LEVEL);
    double low = s.has_ci ? s.ci_low : NAN, high = s.has_ci ? s.ci_high : NAN;
    double u = s.has_ci ? 0.5 * (s.ci_high - s.ci_low) : 0.5 * (s.max - s.min);
    field_long("n", s.n);
    field_number("median", s.median);
    field_number("min", s.min);
    field_number("max", s.max);
    field_number("ci_low", low);
    field_number("ci_high", high);
    field_number("ci_coverage", s.has_ci ? s.ci_coverage : NAN);
    field_number("range_coverage", n >= 2 ? 1.0 - pow(2.0, (double)(1 - n)) : NAN);
    field_text("median_text", s.median, u);
    field_text("min_text", s.min, u);
    field_text("max_text", s.max, u);
    field_text("ci_low_text", low, u);
    field_text("ci_high_text", high, u);
    PredictionInterval next = prediction_interval(values, n, CLOMP_CI_LEVEL);
    field_number("prediction_low", next.low);
    field_number("prediction_high", next.high);
    field_number("prediction_coverage", next.coverage);
    field_long("processes_for_prediction", next.values_needed);
    field_text("prediction_low_text", next.low, u);
    field_text("prediction_high_text", next.high, u);
    answer_end();
    return 0;
}

static int compare(const char *list_a, const char *list_b, double level)
{
    static double a[MAX_VALUES], b[MAX_VALUES];
    long m = parse_list(list_a, a, "A"), n = parse_list(list_b, b, "B");
    FigureComparison c;
    int status = compare_samples(a, m, b, n, level, &c);
    if (status != 0)
        return status;
    const ShiftInterval *s = &c.shift;
    double u = s->has_ci ? 0.5 * (s->high - s->low) : 0.01 * fabs(s->estimate);
    field_long("n_a", m);
    field_long("n_b", n);
    field_number("median_a", c.median_a);
    field_number("median_b", c.median_b);
    field_raw("scale", s->ratio ? "ratio" : "difference", 1);
    field_number("estimate", s->estimate);
    field_number("ci_low", s->has_ci ? s->low : NAN);
    field_number("ci_high", s->has_ci ? s->high : NAN);
    field_number("ci_coverage", s->has_ci ? s->coverage : NAN);
    field_number("u", c.test.u);
    field_number("p", c.test.p_two_sided);
    field_raw("test", c.test.exact ? "exact" : "normal", 1);
    field_long("detected", c.detected);
    if (s->ratio) {
        ratio_fields(s->estimate, s->has_ci ? s->low : NAN, s->has_ci ? s->high : NAN);
    } else {
        field_text("estimate_text", s->estimate, u);
        field_text("ci_low_text", s->has_ci ? s->low : NAN, u);
        field_text("ci_high_text", s->has_ci ? s->high : NAN, u);
    }
    answer_end();
    return 0;
}

/* clomp-stats pilot-n PCT FLOOR CAP V1 V2 ...: how many fresh processes stage 2 runs. */
static int pilot_n(int argc, char **argv)
{
    static double values[MAX_VALUES];
    double pct, floor_width = NAN, cap;
    if (argc < 4) {
        fprintf(stderr, "clomp-stats: pilot-n: usage: pilot-n PCT FLOOR|none CAP V1 V2 ...\n");
        return 2;
    }
    if (parse_value(argv[0], &pct) != 0 || !(pct > 0.0)) {
        fprintf(stderr, "clomp-stats: pilot-n: the width '%s' is not a percentage above 0\n", argv[0]);
        return 2;
    }
    if (strcmp(argv[1], "none") != 0 && (parse_value(argv[1], &floor_width) != 0 || !(floor_width > 0.0))) {
        fprintf(stderr, "clomp-stats: pilot-n: the floor '%s' is not a width above 0 or none\n", argv[1]);
        return 2;
    }
    if (parse_value(argv[2], &cap) != 0 || !(cap >= 1.0 && cap <= 1e9) || cap != floor(cap)) {
        fprintf(stderr, "clomp-stats: pilot-n: the cap '%s' is not a whole number of processes >= 1\n", argv[2]);
        return 2;
    }
    long n = values_of("pilot-n", argc - 3, argv + 3, values);
    if (n == ANSWERED)
        return 0;
    if (n < 0)
        return 2;
    PilotPlan p;
    if (plan_from_pilot(values, n, pct, floor_width, (long)cap, CLOMP_CI_LEVEL, &p) != 0) {
        fprintf(stderr, "clomp-stats: pilot-n: no plan from these values\n");
        return 2;
    }
    field_long("n", p.pilot_n);
    field_number("median", p.median);
    field_number("scale", p.scale);
    field_number("wanted", p.wanted);
    field_long("fewest", p.fewest);
    if (p.needed < 0)
        field_raw("needed", "NA", 0);
    else
        field_long("needed", p.needed);
    field_long("processes", p.processes);
    field_number("expected_half_width", p.expected_half_width);
    field_long("reachable", p.reachable);
    /* Where these values' own interval stands (stage 2's judged by the same width): the larger
     * side of the 95% interval of their median (NA without one), and whether it is within. */
    SampleStats s = summarize_samples(values, n, CLOMP_CI_LEVEL);
    double half = s.has_ci ? fmax(s.median - s.ci_low, s.ci_high - s.median) : NAN;
    field_number("half_width", half);
    field_long("within", s.has_ci && half <= p.wanted);
    field_number("planning_scale", p.planning_scale);
    answer_end();
    return 0;
}

/* The level of --level TEXT; exits 2 unless it is a number between 0 and 1. */
static double parse_level(const char *text)
{
    double level;
    if (parse_value(text, &level) != 0 || !(level > 0.0 && level < 1.0)) {
        fprintf(stderr, "clomp-stats: --level: '%s' is not a number between 0 and 1\n", text);
        answer_exit(2);
    }
    return level;
}

/* One request: ARGV as clomp-stats' own command line (ARGV[0] its name); its exit status. */
int answer(int argc, char **argv)
{
    json_output = 0;
    fields_written = 0;
    /* clomp-stats summary|compare --json ...: the answer as one JSON object. */
    if (argc >= 3 && (strcmp(argv[1], "summary") == 0 || strcmp(argv[1], "compare") == 0 ||
                      strcmp(argv[1], "paired") == 0 || strcmp(argv[1], "holm") == 0 || strcmp(argv[1], "judge") == 0 ||
                      strcmp(argv[1], "pilot-n") == 0 || strcmp(argv[1], "plan") == 0) &&
        strcmp(argv[2], "--json") == 0) {
        json_output = 1;
        for (int i = 2; i < argc - 1; i++)
            argv[i] = argv[i + 1];
        argc--;
    }
    if (argc >= 2 && strcmp(argv[1], "summary") == 0)
        return summary(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "compare") == 0)
        return compare(argv[2], argv[3], CLOMP_CI_LEVEL);
    if (argc == 6 && strcmp(argv[1], "compare") == 0 && strcmp(argv[2], "--level") == 0)
        return compare(argv[4], argv[5], parse_level(argv[3]));
    if (argc >= 2 && strcmp(argv[1], "paired") == 0)
        return paired_answer(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "holm") == 0)
        return holm_answer(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "pilot-n") == 0)
        return pilot_n(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "judge") == 0)
        return judge_answer(argc - 2, argv + 2);
    if (answer_jump == NULL && argc >= 2 && strcmp(argv[1], "outliers") == 0)
        return outlier_answer(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "plan") == 0)
        return plan_answer(argc - 2, argv + 2);
    if (answer_jump == NULL && argc >= 2 && strcmp(argv[1], "replicates") == 0)
        return replicates_answer(argc - 2, argv + 2);
    if (answer_jump == NULL && argc == 4 && strcmp(argv[1], "comparison-json") == 0 && strcmp(argv[2], "--level") == 0)
        return comparison_json(parse_level(argv[3]));
    if (answer_jump != NULL) {   /* outliers and comparison-json read their own standard input: not a batch's request */
        fprintf(stderr, "clomp-stats: batch: '%s' is not a request of a batch (summary, compare, paired, holm, pilot-n, judge, plan)\n",
                argc >= 2 ? argv[1] : "");
        return 2;
    }
    fprintf(stderr, "usage: clomp-stats summary V1 V2 ... | clomp-stats compare [--level L] A1,A2,... B1,B2,...\n"
                    "     | clomp-stats paired [--alpha A] [--looks N1,N2,...] [--tests M] A1,A2,... B1,B2,...\n"
                    "     | clomp-stats holm ALPHA P1,P2,... | clomp-stats pilot-n PCT FLOOR|none CAP V1 V2 ...\n"
                    "     | clomp-stats judge BOUND NOMINAL_GHZ|core CORE_MIN|unknown CORE_MAX|unknown LOW HIGH [PROCESSES]\n"
                    "     | clomp-stats plan PAIRS ALPHA | clomp-stats comparison-json --level L < RECORDS | clomp-stats outliers < REQUEST\n"
                    "     | clomp-stats replicates parse|decide|stop|recorded ... | clomp-stats batch < REQUESTS\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "batch") == 0)
        return batch();
    return answer(argc, argv);
}
