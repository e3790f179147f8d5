/* clomp-stats plan: can a --compare plan reach its level at all, asked
 * before anything runs (results/clomp_results/compare/compare_options.py, issue 43
 * item 6).
 *
 *   clomp-stats plan [--json] PAIRS ALPHA
 *   pairs, alpha
 *   smallest_p     the smallest two-sided p-value the exact signed-rank test gives with PAIRS pairs
 *                  (every difference on one side): 2 / 2^PAIRS
 *   pairs_needed   the fewest pairs whose smallest p reaches ALPHA (6 at 0.05)
 *   reachable      1 when PAIRS can reach ALPHA at all */
#include <stdio.h>
#include <stdlib.h>

#include "../timing/planning.h"
#include "answer_fields.h"
#include "figure_comparison.h"

int plan_answer(int argc, char **argv)
{
    double pairs, alpha;
    if (argc != 2 || parse_value(argv[0], &pairs) != 0 || !(pairs >= 1.0 && pairs <= 1e6) ||
        parse_value(argv[1], &alpha) != 0 || !(alpha > 0.0 && alpha < 1.0)) {
        fprintf(stderr, "clomp-stats: plan: usage: plan PAIRS ALPHA (PAIRS a whole number >= 1, ALPHA between 0 and 1)\n");
        return 2;
    }
    long n = (long)pairs;
    field_long("pairs", n);
    field_number("alpha", alpha);
    field_number("smallest_p", signed_rank_smallest_p(n));
    field_long("pairs_needed", signed_rank_least_pairs(alpha));
    field_long("reachable", signed_rank_smallest_p(n) <= alpha);
    answer_end();
    return 0;
}
