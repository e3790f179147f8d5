/* clomp-stats paired and clomp-stats holm: the answers run_clomp.sh
 * --compare's report asks for (results/clomp_results/compare/compare_report.py).
 *
 *   clomp-stats paired [--json] [--alpha A] [--looks N1,N2,...] [--tests M] [--ci-level L] A1,... B1,...
 * Pair i is (A_i, B_i): processes that ran next to each other. Fields:
 *   n                the pairs
 *   median_a, median_b
 *   estimate         Hodges-Lehmann shift of B - A (the median of the Walsh averages of the differences)
 *   ci_low, ci_high, ci_coverage   its interval at 1 - nominal_alpha: the shifts the test keeps (exact
 *                    up to 50 pairs; coverage exact without ties, else at least the level), widened when
 *                    the pairs are serially correlated (serial); NA when the test keeps every shift
 *   ci_low_open, ci_high_open  1: that end itself is rejected (the interval is open there)
 *   ci_level, ci_excludes_0  the interval's level (--ci-level L, e.g. a Holm step's; default
 *                    1 - nominal_alpha) and whether it excludes 0
 *   w_plus, p, test  the signed-rank statistic, its two-sided p-value: exact conditional (midranks,
 *                    zeros dropped) up to 50 non-zero differences, else normal
 *   p_floor          the smallest p these differences' magnitudes can give (all signs alike)
 *   alpha            the level asked [0.05]; tests: M, the figures it is shared with (Bonferroni's
 *                    alpha/M for the interval and the power of a figure judged by Holm) [1]
 *   looks            with --looks: the planned numbers of pairs; look: which of them n is (0: none)
 *   nominal_alpha    the level each look's p is held to: alpha/M, or with --looks Pocock's level
 *                    (timing/decision.h), so that the looks together keep alpha
 *   overall_alpha    with --looks: the simulated overall rate at nominal_alpha (NA without)
 *   decided          1 when p <= nominal_alpha, the interval excludes 0 and n pairs can reach that
 *                    level at all (stats/paired_figure.h paired_differs)
 *   serial_lag1, serial_lag1_corrected, effective_pairs, serial_p, serial   the lag-1 correlation of
 *                    the differences in the pairs' order, corrected for its bias, the pairs it makes them
 *                    worth, the permutation test of it, and 1 when it is beyond 0.05 (interval widened)
 *   sd_difference    the standard deviation of one difference (0 when the differences are equal to
 *                    their rounding)
 *   sd_upper_80      its 80% upper confidence bound (timing/planning.h): what planning uses
 *   detectable_80    the shift detected with 80% power IF the differences are normal with sd_difference:
 *                    at these n pairs and nominal_alpha, or with --looks by the whole plan (every look)
 *                    (NA: n too small for any detection)
 *   pairs_needed_5pct  the pairs 80% power at a shift of 5% of |median_a| needs with the spread at its
 *                    80% upper bound, at alpha/M, or with --looks at Pocock's level (the last look alone:
 *                    the plan needs at most that many) (NA: median_a 0 or no spread)
 *   p_b_greater, bm_statistic, bm_df, bm_p, bm_degenerate   Brunner-Munzel on the two sides
 *                    as unpaired samples: P(B > A) + P(B = A)/2 and the test of it being 1/2
 *   mad_a, mad_b     each side's median absolute deviation (the spread, for naming a
 *                    different-spread-not-different-centre case)
 *   estimate_text, ci_low_text, ci_high_text: to the precision the interval supports
 *   detectable_text, sd_text  to 1% of themselves: design figures, not estimates of the shift
 *
 *   clomp-stats holm [--json] ALPHA P1,P2,...
 *   m, rejected, reject (a list of 0/1, the p-values' order), adjusted (Holm-adjusted p-values),
 *   step_level (the confidence level of each p-value's step, 1 - ALPHA / (m - rank), rank the p-values
 *   below it: tied ones share the first tie's step) and
 *   interval_level (the level each figure's interval is drawn at: its step level when rejected,
 *   else 1 - ALPHA / m, so that an interval excludes 0 exactly where Holm says "differs"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/decision.h"
#include "../timing/signed_rank.h"
#include "../timing/statistics.h"
#include "../timing/planning.h"
#include "../timing/replication.h"
#include "answer_fields.h"
#include "figure_comparison.h"
#include "paired_figure.h"

#define MAX_LOOKS 20
#define SEQUENTIAL_SIMS 100000L
#define POWER_TRIALS 4000L
#define POWER_SEED 31u

static double parse_probability(const char *what, const char *text)
{
    double v;
    if (parse_value(text, &v) != 0 || !(v > 0.0 && v < 1.0)) {
        fprintf(stderr, "clomp-stats: %s: '%s' is not a number between 0 and 1\n", what, text);
        answer_exit(2);
    }
    return v;
}

static double sd_of(const double *v, long n)
{
    if (n < 2)
        return NAN;
    double mean = 0.0, ss = 0.0;
    for (long i = 0; i < n; i++)
        mean += v[i] / (double)n;
    for (long i = 0; i < n; i++)
        ss += (v[i] - mean) * (v[i] - mean);
    return sqrt(ss / (double)(n - 1));
}

/* The --looks list into looks; returns how many; exits 2 unless increasing whole numbers >= 1. */
static int parse_looks(const char *text, long *looks)
{
    double v[MAX_LOOKS];
    int k = 0;
    const char *p = text;
    while (*p != '\0') {
        char buf[32];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof buf || k >= MAX_LOOKS)
            break;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (parse_value(buf, &v[k]) != 0 || v[k] != floor(v[k]) || v[k] < 1.0 || v[k] > 1e6 ||
            (k > 0 && v[k] <= v[k - 1]))
            break;
        looks[k] = (long)v[k];
        k++;
        p += len;
        if (*p == ',' && p[1] != '\0')
            p++;
        else if (*p == ',')
            break;
    }
    if (*p != '\0' || k == 0) {
        fprintf(stderr, "clomp-stats: --looks: '%s' is not 1 to %d increasing whole numbers of pairs\n", text, MAX_LOOKS);
        answer_exit(2);
    }
    return k;
}

int paired_answer(int argc, char **argv)
{
    static double a[MAX_VALUES], b[MAX_VALUES], d[MAX_VALUES];
    double alpha = 0.05, ci_level = NAN;
    long looks[MAX_LOOKS], tests = 1;
    int k = 0, i = 0;
    const char *looks_text = NULL;
    for (; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--alpha") == 0) {
            alpha = parse_probability("--alpha", argv[i + 1]);
        } else if (strcmp(argv[i], "--looks") == 0) {
            looks_text = argv[i + 1];
            k = parse_looks(looks_text, looks);
        } else if (strcmp(argv[i], "--ci-level") == 0) {
            ci_level = parse_probability("--ci-level", argv[i + 1]);
        } else if (strcmp(argv[i], "--tests") == 0) {
            double m;
            if (parse_value(argv[i + 1], &m) != 0 || m != floor(m) || m < 1.0 || m > 1e6) {
                fprintf(stderr, "clomp-stats: --tests: '%s' is not a whole number >= 1\n", argv[i + 1]);
                return 2;
            }
            tests = (long)m;
        } else {
            fprintf(stderr, "clomp-stats: paired: unknown option '%s'\n", argv[i]);
            return 2;
        }
    }
    if (argc - i != 2) {
        fprintf(stderr, "clomp-stats: paired: give A1,A2,... B1,B2,... (one value per process, pairs in order)\n");
        return 2;
    }
    long m = parse_list(argv[i], a, "A"), n = parse_list(argv[i + 1], b, "B");
    if (m != n) {
        fprintf(stderr, "clomp-stats: paired: %ld values of A but %ld of B (pairs need one each)\n", m, n);
        return 2;
    }
    double fixed = alpha / (double)tests, nominal = fixed, overall = NAN;
    int look = 0;
    if (k > 0) {
        nominal = sequential_nominal_level(looks, k, fixed, SEQUENTIAL_SIMS, POWER_SEED);
        overall = sequential_overall_rate(looks, k, nominal, SEQUENTIAL_SIMS, POWER_SEED + 1u);
        for (int j = 0; j < k; j++)
            if (looks[j] == n)
                look = j + 1;
    }
    PairedFigure f;
    if (isnan(ci_level))
        ci_level = nominal > 0.0 ? 1.0 - nominal : 0.95;
    if (paired_figure(a, b, n, ci_level, d, &f) != 0) {
        fprintf(stderr, "clomp-stats: paired: out of memory\n");
        return 3;
    }
    const ShiftEstimate s = f.shift;
    int has_ci = s.has_ci && nominal > 0.0;
    /* The spread of one difference, for the power figures: the standard
     * deviation (a design figure for normal differences, said so), 0 when
     * the differences are equal but for rounding. */
    double spread = sd_of(d, n), tol = signed_rank_tolerance(d, n);
    if (!(spread > tol))
        spread = 0.0;
    double spread_upper = spread > 0.0 ? sd_upper_bound(spread, n, PLANNING_CONFIDENCE) : spread;
    double detectable = NAN;
    if (spread > 0.0 && nominal > 0.0)
        detectable = spread * (k > 0 ? sequential_detectable_shift(looks, k, nominal, 0.8, POWER_TRIALS / 2, POWER_SEED)
                                     : signed_rank_detectable_shift(n, nominal, 0.8, POWER_TRIALS, POWER_SEED));
    double median_a = median_of(a, n), median_b = median_of(b, n);
    long needed = -1;
    if (spread_upper > 0.0 && median_a != 0.0 && (k == 0 || nominal > 0.0))
        needed = signed_rank_pairs_needed(0.05 * fabs(median_a) / spread_upper, k > 0 ? nominal : fixed, 0.8,
                                          POWER_TRIALS / 2, POWER_SEED);
    BrunnerMunzel bm;
    int have_bm = brunner_munzel(a, n, b, n, &bm) == 0;
    double u = has_ci ? 0.5 * (s.high - s.low) : 0.01 * fabs(s.estimate);

    field_long("n", n);
    field_number("median_a", median_a);
    field_number("median_b", median_b);
    field_number("estimate", s.estimate);
    field_number("ci_low", has_ci ? s.low : NAN);
    field_number("ci_high", has_ci ? s.high : NAN);
    field_number("ci_coverage", has_ci ? s.coverage : NAN);
    field_number("w_plus", s.w_plus);
    field_number("p", s.p_value);
    field_raw("test", s.exact ? "exact" : "normal", 1);
    field_number("alpha", alpha);
    field_long("tests", tests);
    field_raw("looks", looks_text != NULL ? looks_text : "NA", 1);
    field_long("look", look);
    field_number("nominal_alpha", nominal);
    field_number("overall_alpha", overall);
    field_long("decided", paired_differs(&f, nominal));
    field_number("sd_difference", spread);
    field_number("detectable_80", detectable);
    field_number("pairs_needed_5pct", needed > 0 ? (double)needed : NAN);
    field_number("p_b_greater", have_bm ? bm.p_b_greater : NAN);
    field_number("bm_statistic", have_bm && isfinite(bm.statistic) ? bm.statistic : NAN);
    field_number("bm_df", have_bm ? bm.df : NAN);
    field_number("bm_p", have_bm ? bm.p_value : NAN);
    field_long("bm_degenerate", have_bm && bm.degenerate);
    field_number("mad_a", mad_of(a, n));
    field_number("mad_b", mad_of(b, n));
    field_text("estimate_text", s.estimate, u);
    field_text("ci_low_text", has_ci ? s.low : NAN, u);
    field_text("ci_high_text", has_ci ? s.high : NAN, u);
    field_text("detectable_text", detectable, detectable * 0.01);
    /* appended (issue 44) */
    field_long("ci_low_open", has_ci && s.low_open);
    field_long("ci_high_open", has_ci && s.high_open);
    field_number("p_floor", s.p_floor);
    field_number("serial_lag1", f.lag1);
    field_number("serial_lag1_corrected", f.lag1_corrected);
    field_number("effective_pairs", f.effective_pairs);
    field_number("serial_p", f.serial_p);
    field_long("serial", f.serial);
    field_number("sd_upper_80", spread_upper);
    field_text("sd_text", spread, spread * 0.01);
    field_number("ci_level", ci_level);
    field_long("ci_excludes_0", shift_excludes(&s, 0.0));
    answer_end();
    return 0;
}

int holm_answer(int argc, char **argv)
{
    static double p[MAX_VALUES], adjusted[MAX_VALUES];
    static int reject[MAX_VALUES];
    if (argc != 2) {
        fprintf(stderr, "clomp-stats: holm: give ALPHA P1,P2,...\n");
        return 2;
    }
    double alpha = parse_probability("holm", argv[0]);
    long m = parse_list(argv[1], p, "p-values");
    for (long i = 0; i < m; i++)
        if (!(p[i] >= 0.0 && p[i] <= 1.0)) {
            fprintf(stderr, "clomp-stats: holm: p-value '%g' is not between 0 and 1\n", p[i]);
            return 2;
        }
    long rejected = holm_rejections(p, (size_t)m, alpha, reject, adjusted);
    if (rejected < 0) {
        fprintf(stderr, "clomp-stats: holm: out of memory\n");
        return 3;
    }
    /* Each p-value's step level: the confidence level 1 - alpha / (m - rank),
     * rank its 0-based place in ascending order (ties in the order given), at
     * which Holm's step-down tests it; a figure's interval at that level agrees
     * with its test (the buyer's table prints it). */
    static double step[MAX_VALUES], interval[MAX_VALUES];
    for (long i = 0; i < m; i++) {
        /* Tied p-values share the first tie's step: Holm tests them in
         * either order and rejects all of them or none (at that step's
         * level), so that no figure's level hangs on the order it was given. */
        long rank = 0;
        for (long j = 0; j < m; j++)
            rank += p[j] < p[i];
        step[i] = 1.0 - alpha / (double)(m - rank);
        /* A figure Holm rejects: its step's level, at which its interval
         * excludes 0 as its test does; one it keeps: Bonferroni's 1 - alpha/m,
         * at which its interval cannot exclude 0 (were its p <= alpha/m,
         * Holm would have rejected it). */
        interval[i] = reject[i] ? step[i] : 1.0 - alpha / (double)m;
    }
    size_t room = (size_t)m * 32 + 3;
    char *r_text = malloc(room), *a_text = malloc(room), *s_text = malloc(room), *i_text = malloc(room);
    if (r_text == NULL || a_text == NULL || s_text == NULL || i_text == NULL) {
        free(r_text), free(a_text), free(s_text), free(i_text);
        fprintf(stderr, "clomp-stats: holm: out of memory\n");
        return 3;
    }
    size_t rl = 0, al = 0, sl = 0, il = 0;
    const char *open = json_output ? "[" : "", *close = json_output ? "]" : "";
    rl += (size_t)snprintf(r_text + rl, room - rl, "%s", open);
    al += (size_t)snprintf(a_text + al, room - al, "%s", open);
    sl += (size_t)snprintf(s_text + sl, room - sl, "%s", open);
    il += (size_t)snprintf(i_text + il, room - il, "%s", open);
    for (long i = 0; i < m; i++) {
        rl += (size_t)snprintf(r_text + rl, room - rl, "%s%d", i ? "," : "", reject[i]);
        al += (size_t)snprintf(a_text + al, room - al, "%s%.15g", i ? "," : "", adjusted[i]);
        sl += (size_t)snprintf(s_text + sl, room - sl, "%s%.15g", i ? "," : "", step[i]);
        il += (size_t)snprintf(i_text + il, room - il, "%s%.15g", i ? "," : "", interval[i]);
    }
    snprintf(r_text + rl, room - rl, "%s", close);
    snprintf(a_text + al, room - al, "%s", close);
    snprintf(s_text + sl, room - sl, "%s", close);
    snprintf(i_text + il, room - il, "%s", close);
    field_long("m", m);
    field_long("rejected", rejected);
    field_raw("reject", r_text, 0);
    field_raw("adjusted", a_text, 0);
    field_raw("step_level", s_text, 0);
    field_raw("interval_level", i_text, 0);
    answer_end();
    free(r_text);
    free(a_text);
    free(s_text);
    free(i_text);
    return 0;
}
