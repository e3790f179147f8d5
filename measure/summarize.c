/* A measurement's figures from its raw chunk timings (summarize.h). */
#include "summarize.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "warnings.h"

void finish_measurement(const RunSetup *run, Measurement *m, const Measurement *bestcase)
{
    summarize_measurement(m, bestcase);
    measurement_warnings(run, m);
}

void judge_validity(Measurement *m)
{
    m->invalid = 0;
    m->invalid_reason[0] = '\0';
    if (m->rounds_done == 0)
        return;
    double ratio = m->runtime_us / m->us;
    if (m->us > 0.0 && m->runtime_us > 0.0 && (ratio > CLOMP_MEAN_MEDIAN_FACTOR || ratio < 1.0 / CLOMP_MEAN_MEDIAN_FACTOR)) {
        m->invalid = 1;
        snprintf(m->invalid_reason, sizeof m->invalid_reason,
                 "its Runtime us/Loop %.4g (the mean over its chunks) is %.3gx its median chunk's %.4g, beyond the "
                 "factor %.0f: a few chunks took most of the time, so neither figure describes the run",
                 m->runtime_us, ratio, m->us, CLOMP_MEAN_MEDIAN_FACTOR);
    } else if (m->has_overhead && m->has_overhead_ci && m->overhead_high < 0.0) {
        m->invalid = 1;
        snprintf(m->invalid_reason, sizeof m->invalid_reason,
                 "faster than Bestcase OMP beyond its 95%% interval (overhead %.4g .. %.4g us/Loop): Bestcase is the "
                 "least this loop costs, so one of the two timings is not the loop's",
                 m->overhead_low, m->overhead_high);
    } else if (m->schedule->delays && m->stats.has_ci && m->stats.ci_high < 0.0) {
        /* A delay probe's chunk is its construct's time minus the same delays run serially (EPCC's
         * method): a cost below 0 beyond its interval means the reference was disturbed, not that
         * the construct saves time. */
        m->invalid = 1;
        snprintf(m->invalid_reason, sizeof m->invalid_reason,
                 "faster than its serial reference beyond its 95%% interval (%.4g .. %.4g us/Loop): a cost "
                 "cannot be negative, so the reference's timing was disturbed",
                 m->stats.ci_low, m->stats.ci_high);
    } else if (m->has_overhead && m->has_round_range && m->round_range_high < 0.0) {
        m->invalid = 1;
        snprintf(m->invalid_reason, sizeof m->invalid_reason,
                 "faster than Bestcase OMP in every round (overhead %.4g .. %.4g us/Loop): Bestcase is the least "
                 "this loop costs, so one of the two timings is not the loop's",
                 m->round_range_low, m->round_range_high);
    }
}

/* CLOMP 1.2's us/Loop of one round, total time over total subcycles, with
 * its standard error from the round's chunks. */
static RateEstimate runtime_rate(const Measurement *m, long round)
{
    RateEstimate r = {0, NAN, NAN, NAN};
    double *y = malloc((size_t)m->chunks * sizeof *y), *x = malloc((size_t)m->chunks * sizeof *x);
    if (y != NULL && x != NULL) {
        for (long c = 0; c < m->chunks; c++) {
            y[c] = m->chunk_seconds[round * m->chunks + c] * 1e6;
            x[c] = (double)chunk_subcycles(m, c);
        }
        r = rate_of_sums(y, x, m->chunks);
    }
    free(y);
    free(x);
    return r;
}

void summarize_measurement(Measurement *m, const Measurement *bestcase)
{
    long n = m->rounds_done * m->chunks;
    double *us = malloc((size_t)(n > 0 ? n : 1) * sizeof *us);
    double *diffs = malloc((size_t)(m->rounds_done > 0 ? m->rounds_done : 1) * sizeof *diffs);
    if (us == NULL || diffs == NULL || n == 0) {
        free(us);
        free(diffs);
        return;
    }
    for (long r = 0; r < m->rounds_done; r++) {
        for (long c = 0; c < m->chunks; c++)
            us[r * m->chunks + c] = m->chunk_seconds[r * m->chunks + c] * 1e6 / (double)chunk_subcycles(m, c);
        m->round_median_us[r] = median_of(us + r * m->chunks, m->chunks);
    }
    m->stats = summarize_samples(us, n, CLOMP_CI_LEVEL);
    /* Two medians' intervals at 1 - (1 - L)/2 each give their difference at least L (Bonferroni). */
    m->paired_stats = summarize_samples(us, n, 1.0 - (1.0 - CLOMP_CI_LEVEL) / 2.0);
    m->us = m->stats.median;
    m->seconds = median_of(m->round_seconds, m->rounds_done);
    m->runtime_us = m->seconds * 1e6 / (double)m->chunk_end[m->chunks - 1];

    m->has_overhead = m->schedule->role == ROLE_CHECKED && bestcase != NULL &&
                      bestcase->rounds_done == m->rounds_done;
    m->bestcase_invalid = m->has_overhead && bestcase->invalid;
    if (m->has_overhead) {
        m->runtime_overhead_us = m->runtime_us - bestcase->runtime_us;
        m->runtime_efficacy = bestcase->runtime_us / m->runtime_us * 100.0;
        /* With one round, Runtime is the chunks' total: its interval comes
         * from them. Several rounds' Runtime is a median of totals: none. */
        if (m->rounds_done == 1) {
            RateEstimate a = runtime_rate(m, 0), b = runtime_rate(bestcase, 0);
            m->has_runtime_overhead_ci = rate_difference_interval(&a, &b, CLOMP_CI_LEVEL, &m->runtime_overhead_low,
                                                                  &m->runtime_overhead_high) == 0;
        }
        /* One round: the difference of the medians, with the Bonferroni
         * interval of the two. Several rounds: each round is paired with
         * the bestcase of the same round, and the overhead, its interval
         * and the efficacy all come from those pairs, so they agree. */
        for (long r = 0; r < m->rounds_done; r++)
            diffs[r] = m->round_median_us[r] - bestcase->round_median_us[r];
        m->overhead_us = median_of(diffs, m->rounds_done);
        if (m->rounds_done == 1) {
            m->efficacy = bestcase->us / m->us * 100.0;
            m->has_overhead_ci = difference_interval(&m->paired_stats, &bestcase->paired_stats, &m->overhead_low,
                                                     &m->overhead_high) == 0;
        } else {
            SampleStats d = summarize_samples(diffs, m->rounds_done, CLOMP_CI_LEVEL);
            m->has_overhead_ci = m->overhead_ci_paired = d.has_ci;
            m->overhead_low = d.ci_low;
            m->overhead_high = d.ci_high;
            m->has_round_range = !d.has_ci;
            m->round_range_low = d.min;
            m->round_range_high = d.max;
            for (long r = 0; r < m->rounds_done; r++)
                diffs[r] = bestcase->round_median_us[r] / m->round_median_us[r] * 100.0;
            m->efficacy = median_of(diffs, m->rounds_done);
        }
    } else if (m->schedule->role == ROLE_BESTCASE) {
        m->efficacy = m->runtime_efficacy = 100.0;
    }
    judge_validity(m);
    free(us);
    free(diffs);
}
