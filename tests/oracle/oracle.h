/* An independent re-implementation of CLOMP's math on plain arrays, written
 * from the specification (not from clomp's sources), used as the oracle the
 * real mesh and schedules are checked against. values[p*Z + z] is zone z+1
 * of part p. */
#ifndef CLOMP_ORACLE_H
#define CLOMP_ORACLE_H

#include <stdlib.h>

typedef struct Oracle {
    long P, Z, F;
    double *values, *residue, *ratio;
    long *updates;
    double partRatio, percent_residue, max_residue, residue_ratio_part0;
    double error_bound, tight_error_bound;
} Oracle;

static inline void oracle_deposit_into_part(Oracle *o, long p, double amount)
{
    double left = amount;
    o->updates[p]++;
    for (long z = 0; z < o->Z; z++)
        for (long k = 0; k < o->F; k++) {
            double d = left * o->ratio[p];
            o->values[p * o->Z + z] += d;
            left -= d;
        }
    o->residue[p] = left;
}

static inline void oracle_reset(Oracle *o)
{
    for (long i = 0; i < o->P * o->Z; i++)
        o->values[i] = 0.0;
    for (long p = 0; p < o->P; p++) {
        o->residue[p] = 0.0;
        o->updates[p] = 0;
        oracle_deposit_into_part(o, p, 0.0);
    }
}

/* Ratios (CLOMP 1.2 formula; the documented single-zone model for Z = 1),
 * then the set-up: one update of every part with 1/P from zero. */
static inline void oracle_init(Oracle *o, long P, long Z, long F)
{
    o->P = P;
    o->Z = Z;
    o->F = F;
    o->values = calloc((size_t)(P * Z), sizeof(double));
    o->residue = calloc((size_t)P, sizeof(double));
    o->ratio = calloc((size_t)P, sizeof(double));
    o->updates = calloc((size_t)P, sizeof(long));
    for (long p = 0; p < P; p++) {
        double denominator = Z == 1 ? ((double)F + 2.0) * (double)P : (double)Z * (double)P;
        o->ratio[p] = (1.5 * (double)P + (double)p) / denominator;
    }
    o->partRatio = 1.0 / (double)P;
    for (long p = 0; p < P; p++)
        oracle_deposit_into_part(o, p, o->partRatio);
    o->percent_residue = 0.0;
    for (long p = 0; p < P; p++)
        o->percent_residue += o->residue[p];
    o->error_bound = o->residue[0] * o->ratio[0];
    o->tight_error_bound = o->residue[0] * o->ratio[0] * o->ratio[0];
    for (long p = 1; p < P; p++) {
        double e = o->residue[p] * o->ratio[p], t = o->residue[p] * o->ratio[p] * o->ratio[p];
        o->error_bound = e < o->error_bound ? e : o->error_bound;
        o->tight_error_bound = t < o->tight_error_bound ? t : o->tight_error_bound;
    }
    o->max_residue = o->percent_residue / (1.0 - o->percent_residue);
    o->residue_ratio_part0 = o->percent_residue == 0.0 ? 0.0 : o->percent_residue / o->residue[0];
}

/* `subcycles` serial subcycles from a fresh reset, as Serial Ref runs them. */
static inline void oracle_run_serial(Oracle *o, long subcycles)
{
    oracle_reset(o);
    for (long s = 0; s < subcycles; s++) {
        double deposit = (1.0 + o->residue[0] * o->residue_ratio_part0) * o->partRatio;
        for (long p = 0; p < o->P; p++)
            oracle_deposit_into_part(o, p, deposit);
    }
}

/* What Bestcase OMP computes: a fixed deposit, every part every subcycle. */
static inline void oracle_run_bestcase(Oracle *o, long subcycles)
{
    oracle_reset(o);
    double deposit = (1.0 + o->max_residue) / (double)o->P;
    for (long s = 0; s < subcycles; s++)
        for (long p = 0; p < o->P; p++)
            oracle_deposit_into_part(o, p, deposit);
}

static inline void oracle_checksum(const Oracle *o, double *sum, double *residue)
{
    *sum = 0.0;
    *residue = 0.0;
    for (long p = 0; p < o->P; p++) {
        for (long z = 0; z < o->Z; z++)
            *sum += o->values[p * o->Z + z];
        *residue += o->residue[p];
    }
}

static inline void oracle_free(Oracle *o)
{
    free(o->values);
    free(o->residue);
    free(o->ratio);
    free(o->updates);
}

#endif
