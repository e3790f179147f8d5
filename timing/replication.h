/* Two-stage replication (run_clomp.sh --replicates auto, issue 31): a pilot
 * of processes estimates how far processes of one input spread; the plan is
 * the fewest FRESH processes whose 95% interval of the median is expected to
 * reach the wanted half-width. The interval reported comes from the fresh
 * processes alone: their number is fixed before they run, so its coverage is
 * the order-statistic interval's own (>= 95%), which a rule that stops on the
 * interval it reports does not keep (docs/noise.md). */
#ifndef CLOMP_REPLICATION_H
#define CLOMP_REPLICATION_H

/* A normal spread's standard deviation from a sample, robustly:
 * 1.4826 x the median absolute deviation from the median; the sample
 * standard deviation when more than half the values are equal (MAD 0);
 * 0 for fewer than 2 values. */
double robust_scale(const double *values, long n);

/* The expected half-width, (x(hi) - x(lo)) / 2, of the order-statistic
 * interval of the median at `level` (median_ci_ranks) from n values of a
 * normal spread with standard deviation `scale`: scale x Phi^-1 at Blom's
 * plotting position (hi - 0.375) / (n + 0.25). NaN when n values have no
 * such interval (fewer than 6 at 95%). */
double expected_median_half_width(long n, double scale, double level);

/* The one-sided confidence of the spread's upper bound a plan is made on. */
#define PLANNING_CONFIDENCE 0.8

/* Croux and Rousseeuw's factor that makes 1.4826 x MAD of n normal values
 * unbiased for their standard deviation (1.200 at 6, n / (n - 0.8) from 10). */
double small_sample_mad_factor(long n);

typedef struct PilotPlan {
    long pilot_n;               /* values in the pilot */
    double median;              /* the pilot's median */
    double scale;               /* robust_scale of the pilot */
    double planning_scale;      /* what the plan uses: the 80% upper bound of scale x small_sample_mad_factor */
    double wanted;              /* the half-width wanted: the smaller of pct% of |median| and floor */
    long fewest;                /* the fewest values with an interval at `level` (6 at 95%) */
    long needed;                /* the fewest n >= fewest whose expected half-width (at planning_scale) is <= wanted;
                                 * -1 when none is (wanted 0 with a spread) */
    long processes;             /* needed within [min(fewest, cap), cap]: what stage 2 runs */
    double expected_half_width; /* at `processes` and planning_scale; NaN below `fewest` */
    int reachable;              /* 1 when `processes` is expected to reach `wanted` */
} PilotPlan;

/* The plan from n >= 1 pilot values: pct > 0 (percent of |median|), floor
 * the largest half-width wanted in the figure's unit (NaN or <= 0: none),
 * cap >= 1 the most processes stage 2 may run. Returns 0, or -1 on bad
 * arguments. */
int plan_from_pilot(const double *pilot, long n, double pct, double floor_width, long cap, double level,
                    PilotPlan *out);

#endif
