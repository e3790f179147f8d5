/* clomp --constructs's table in the text report: after everything CLOMP 1.2
 * prints (appended), one line per construct, chunk and level. */
#include "text_report.h"

#include <math.h>
#include <string.h>

#include "../numa/cpu_classes.h"
#include "construct_columns.h"
#include "text_format.h"

/* Team k's CPUs as "0,1" (counted beyond TEAM_CPUS_LISTED threads) and whether they are distinct. */
static int team_cpus(const ConstructTable *t, int k, char *buf, size_t size)
{
    const TeamObservation *seen = &t->level2_team;
    long first = (long)k * t->inner, left = seen->cpu_slots - first;
    int n = left <= 0 ? 0 : left < t->inner ? (int)left : t->inner;
    return describe_team_cpus(&seen->cpu[first], n, buf, size);
}

/* How many of the outer teams had no two threads on one CPU, and the first that did. */
static int distinct_teams(const ConstructTable *t, int *first_shared)
{
    char unused[64];
    int distinct = 0;
    *first_shared = -1;
    for (int k = 0; k < t->outer; k++) {
        if (team_cpus(t, k, unused, sizeof unused))
            distinct++;
        else if (*first_shared < 0)
            *first_shared = k;
    }
    return distinct;
}

/* "0.10 us asked, 153 additions, 0.100 us calibrated", or for a length
 * given (--construct-delay-length) "153 additions given, 0.100 us timed". */
static void describe_delay(char *buf, size_t size, const DelayCalibration *d, const char *calibrated)
{
    if (d->given)
        snprintf(buf, size, "%d additions given, %.3f us timed", d->length, d->us);
    else
        snprintf(buf, size, "%.2f us asked, %d additions, %.3f us%s%s", d->target_us, d->length, d->us,
                 calibrated[0] != '\0' ? " " : "", calibrated);
}

static void print_setup_lines(FILE *out, const RunRecord *r, const ConstructTable *t)
{
    const RunSetup *run = r->run;
    fprintf(out, "------ OpenMP construct overheads (EPCC method; level 2: Dimakopoulos et al.) ------\n");
    char sync[96], loop[96];
    describe_delay(sync, sizeof sync, &t->sync_delay, "calibrated");
    describe_delay(loop, sizeof loop, &t->loop_delay, "");
    fprintf(out, "Delay: %s; loops: %s, %d iterations per thread\n", sync, loop, t->iters_per_thread);
    fprintf(out, "Repetitions: %ld per test, each aimed at %.0f us; overhead = (test - reference) / innerreps, "
                 "median and 95%% interval %s\n",
            run->constructs.reps, run->constructs.target_us, INTERVAL_SCOPE);
    if (t->busy)
        fprintf(out, "Busy: YES, every row unresolved: %s\n", t->busy_reason);
    fprintf(out, "Max active levels: %d (%s)\n", run->max_active_levels,
            run->max_active_levels_from_env ? "OMP_MAX_ACTIVE_LEVELS" : "set by clomp");
    if (t->outer == 0) {
        fprintf(out, "Level 2: N/A (%s)\n", t->level2_unavailable);
        return;
    }
    fprintf(out, "Level 2: %dx%d (OUTER x INNER), every outer thread runs the test with its own inner team at once",
            t->outer, t->inner);
    if (t->oversubscribed)
        fprintf(out, "; oversubscribed: %d threads on %d CPUs, waiting %s", t->outer * t->inner, t->cpus,
                t->wait_policy != NULL ? t->wait_policy : "as the runtime's default (OMP_WAIT_POLICY unset)");
    fputc('\n', out);
    if (!t->level2_team.nested) {   /* a guard: clomp prints the table only after a complete run, which observed it */
        fprintf(out, "Level 2 inner teams' CPUs: not observed (the run ended before level 2)\n");
        return;
    }
    fprintf(out, "Level 2 inner teams' CPUs:");
    if (t->outer * t->inner > TEXT_FULL_TABLE_ROWS) {   /* one line at any shape; the JSON's level2_team lists them */
        int shared, distinct = distinct_teams(t, &shared);
        fprintf(out, " %d of %d teams on distinct CPUs", distinct, t->outer);
        if (shared >= 0) {
            char cpus[TEAM_CPUS_TEXT];
            team_cpus(t, shared, cpus, sizeof cpus);
            fprintf(out, ", the first shared: team %d, %s", shared, cpus);
        }
        fprintf(out, " (summarised: more than %d threads; every thread's CPU is in the JSON's constructs.level2_team.inner_team_cpus)\n",
                TEXT_FULL_TABLE_ROWS);
        return;
    }
    for (int k = 0; k < t->outer; k++) {
        char cpus[TEAM_CPUS_TEXT];
        int distinct = team_cpus(t, k, cpus, sizeof cpus);
        fprintf(out, " team %d: %s (%s)%s", k, cpus, distinct ? "distinct" : "shared", k + 1 < t->outer ? ";" : "");
    }
    fputc('\n', out);
}

void print_constructs(FILE *out, const RunRecord *r)
{
    const ConstructTable *t = r->constructs;
    if (t == NULL)
        return;
    print_setup_lines(out, r, t);
    /* 14 wide (syncbench's and schedbench's names), wider for a longer name
     * (EPCC 4.0's "MASTER TASK BUSY SLAVES", the offload build's map rows with their byte counts). */
    int width = 14;
    for (size_t i = 0; i < t->count; i++) {
        char name_buf[32];
        ConstructCellRow cells = {r, &t->rows[i], 0};
        FigureCell n = construct_columns[1].cell(&cells, name_buf, sizeof name_buf);
        if (n.text != NULL && (int)strlen(n.text) > width)
            width = (int)strlen(n.text);
    }
    fprintf(out, "%-*s %5s %7s %12s %23s %9s %10s %-12s %s\n", width, "Construct", "Level", "Team", "Overhead us",
            "95% interval us", "Cycles", "innerreps", "Teams seen", "L2/L1");
    for (size_t i = 0; i < t->count; i++)
        for (int l = 0; l < CONSTRUCT_LEVELS; l++) {
            const ConstructResult *row = &t->rows[i];
            const ConstructLevel *L = &row->level[l];
            if (!construct_level_shown(row, l) || (l == 2 && t->outer == 0))
                continue;
            char name[32], name_buf[32], shape[24], seen[32] = "-", us[32] = "N/A", ci[64] = "", cyc[32] = "";
            ConstructCellRow cells = {r, row, l};
            FigureCell n = construct_columns[1].cell(&cells, name_buf, sizeof name_buf);
            snprintf(name, sizeof name, "%s", n.text);
            snprintf(shape, sizeof shape, "%dx%d", L->outer, L->inner);
            if (L->seen.regions > 0)
                snprintf(seen, sizeof seen, "%d..%d lvl %d", L->seen.threads_min, L->seen.threads_max,
                         L->seen.level_max);
            fprintf(out, "%-*s %5d %7s ", width, name, construct_level_number(l), shape);
            if (L->status == CONSTRUCT_UNRESOLVED) {   /* never printed as a measured overhead */
                fprintf(out, "%12s unresolved: %s\n", "-", L->problem);
                continue;
            }
            if (L->status != CONSTRUCT_MEASURED) {
                fprintf(out, "%12s %-s\n", "-", L->problem);
                continue;
            }
            double u = median_uncertainty(&L->overhead);
            measured_text(us, sizeof us, L->overhead.median, u, 3);
            if (L->overhead.has_ci) {
                char lo[24], hi[24];
                snprintf(ci, sizeof ci, "[%s, %s]", bound_text(lo, sizeof lo, L->overhead.ci_low, u, 3, -1),
                         bound_text(hi, sizeof hi, L->overhead.ci_high, u, 3, +1));
            }
            double cycles = cycles_from_us(&r->run->cycles, L->overhead.median);
            if (!isnan(cycles))
                snprintf(cyc, sizeof cyc, "%.0f", cycles);
            fprintf(out, "%12s %23s %9s %10ld %-12s", us, ci, cyc, L->innerreps, seen);
            if (l == 2 && !isnan(row->ratio))
                fprintf(out, " %.2f", row->ratio);
            fputc('\n', out);
        }
    fprintf(out, "------ (level 1 at %ld thread%s%s; docs/constructs.md) ------\n", r->run->numThreads,
            r->run->numThreads == 1 ? "" : "s", t->outer > 0 ? "; level 1 rows at INNER threads are the ratio's base" : "");
}
