/* Comparing two sets of whole-process measurements (A and B): the
 * Mann-Whitney U test and the matching distribution-free interval for the
 * ratio (or difference) of B to A (Hodges-Lehmann estimate, Moses interval).
 * Used by run_clomp.sh --compare through the clomp-stats helper. */
#ifndef CLOMP_COMPARISON_H
#define CLOMP_COMPARISON_H

/* Largest sample sizes for which the exact null distribution of U is used,
 * with or without ties (its counts, at most C(50, 25) = 1.3e14, stay exact
 * in a double). */
#define CLOMP_EXACT_U_MAX 25

typedef struct RankTest {
    double u;            /* U of B: pairs (a_i, b_j) with b_j > a_i, ties counting 1/2 */
    double p_two_sided;  /* P(|U - mn/2| >= |u - mn/2|) under "same distribution" */
    int exact;           /* 1: exact permutation distribution (with ties: of the mid-ranks);
                          * 0: normal approximation (above CLOMP_EXACT_U_MAX per side) */
    long tied_values;    /* values of the pooled sample that occur more than once (each counted once per tie group member) */
} RankTest;

typedef struct ShiftInterval {
    int ratio;           /* 1: B/A (every value > 0); 0: B - A */
    double estimate;     /* median of the m*n pairwise ratios b_j/a_i (geometric mean of the middle two
                          * when even) or differences b_j - a_i */
    int has_ci;          /* 0: the samples are too small for the level asked for */
    double low, high;    /* pairwise ratios (differences) of ranks k and m*n+1-k */
    double coverage;     /* 1 - 2 P(U <= k-1): exact (>= level) for small samples, approximate for large */
    long k;
} ShiftInterval;

/* P(U <= u) for samples of m and n values without ties, from the exact
 * distribution of U (m, n <= CLOMP_EXACT_U_MAX); u is rounded down. NAN
 * for sizes outside that range. */
double mann_whitney_exact_cdf(long m, long n, double u);

/* Two-sided Mann-Whitney U test of A (m values) against B (n values), both
 * m, n >= 1. Exact when both sizes are at most CLOMP_EXACT_U_MAX: without
 * ties from mann_whitney_exact_cdf, with ties from the permutation
 * distribution of U for the pooled sample's tie pattern (tied values take
 * their mid-rank; p = P(|U - mn/2| >= |u - mn/2|)). Above that, the normal
 * approximation with continuity and tie correction. Returns 0, or -1 on bad
 * sizes or memory. */
int mann_whitney(const double *a, long m, const double *b, long n, RankTest *out);

/* The distribution-free interval (Moses) for how B relates to A, on the
 * scale of ratios when every value is > 0, else of differences: the ranks
 * k, mn+1-k of the sorted pairwise values with the largest k whose
 * P(U <= k-1) <= (1 - level)/2. Returns 0, or -1 on bad sizes or memory. */
int shift_interval(const double *a, long m, const double *b, long n, double level, ShiftInterval *out);

#endif
