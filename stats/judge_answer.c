/* clomp-stats judge: LLNL's targets judged by clomp's one rule
 * (measure/llnl_targets.h judge_cycles) for the reports written in Python
 * (the HTML report's targets table, the buyer's table), so that they never
 * say "met" where clomp's own text says "unavailable" (issue 44).
 *
 *   clomp-stats judge [--json] BOUND NOMINAL_GHZ CORE_MIN CORE_MAX LOW HIGH [PROCESSES]
 * LOW .. HIGH: cycles; NOMINAL_GHZ: the TSC rate they were counted at
 * (nominal TSC cycles, judged as core cycles over CORE_MIN .. CORE_MAX GHz,
 * "unknown" when the core clock is not known), or "core" when they are core
 * cycles already (--ghz). Without PROCESSES, LOW .. HIGH is a 95% interval
 * (or LOW = HIGH one value); with PROCESSES = N, it is the min .. max of N
 * processes, N below 6 (the fewest whose order statistics give a 95%
 * interval of the median): the verdict then covers those processes only,
 * and says so. Fields: verdict (met, not met, undecided, unavailable),
 * core_low, core_high (the core-cycle range judged), qualified (1 when
 * the verdict is about N processes, not a 95% statement), text. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../measure/llnl_targets.h"
#include "answer_fields.h"
#include "figure_comparison.h"

#define JUDGE_FEWEST_FOR_95 6

static int number_or(const char *text, const char *word, double if_word, double *value)
{
    if (strcmp(text, word) == 0) {
        *value = if_word;
        return 0;
    }
    return parse_value(text, value);
}

int judge_answer(int argc, char **argv)
{
    double bound, ghz, core_min, core_max, low, high, processes = 0.0;
    if ((argc != 6 && argc != 7) || parse_value(argv[0], &bound) != 0 || !(bound > 0.0) ||
        number_or(argv[1], "core", 0.0, &ghz) != 0 || !(ghz >= 0.0) || number_or(argv[2], "unknown", NAN, &core_min) != 0 ||
        number_or(argv[3], "unknown", NAN, &core_max) != 0 || parse_value(argv[4], &low) != 0 ||
        parse_value(argv[5], &high) != 0 || low > high ||
        (argc == 7 && (parse_value(argv[6], &processes) != 0 || processes != floor(processes) || processes < 1.0 ||
                       processes >= JUDGE_FEWEST_FOR_95))) {
        fprintf(stderr, "clomp-stats: judge: give BOUND NOMINAL_GHZ|core CORE_MIN|unknown CORE_MAX|unknown LOW HIGH "
                        "[PROCESSES 1..%d]\n", JUDGE_FEWEST_FOR_95 - 1);
        return 2;
    }
    double core_low, core_high;
    const char *verdict = judge_cycles(0.5 * (low + high), 1, low, high, bound, ghz, core_min, core_max, &core_low,
                                       &core_high);
    char text[160];
    long n = (long)processes;
    int qualified = n > 1 && strcmp(verdict, "unavailable") != 0;
    if (!qualified)
        snprintf(text, sizeof text, "%s", verdict);
    else if (strcmp(verdict, "met") == 0)
        snprintf(text, sizeof text, "met (in %ld of %ld processes; %d needed for a 95%% statement)", n, n,
                 JUDGE_FEWEST_FOR_95);
    else if (strcmp(verdict, "not met") == 0)
        snprintf(text, sizeof text, "not met (in any of %ld processes; %d needed for a 95%% statement)", n,
                 JUDGE_FEWEST_FOR_95);
    else
        snprintf(text, sizeof text, "undecided (the %ld processes' range, at the cores' clock range, holds the target)", n);
    field_raw("verdict", verdict, 1);
    field_number("core_low", core_low);
    field_number("core_high", core_high);
    field_long("qualified", qualified);
    field_raw("text", text, 1);
    answer_end();
    return 0;
}
