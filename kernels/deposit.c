#include "deposit.h"

#include "update_part.h"

#include <math.h>

void calibrate_deposit(Problem *pb)
{
    const MeshShape *s = &pb->mesh.shape;
    Part **parts = pb->mesh.partArray;
    DepositState *d = &pb->deposit;

    d->partRatio = 1.0 / (double)s->numParts;
    for (long p = 0; p < s->numParts; p++)
        update_part(parts[p], d->partRatio, s->flopScale);

    d->percent_residue = 0.0;
    d->error_bound = parts[0]->residue * parts[0]->deposit_ratio;
    d->tight_error_bound = d->error_bound * parts[0]->deposit_ratio;
    d->vanished_residues = 0;
    for (long p = 0; p < s->numParts; p++) {
        double residue = parts[p]->residue, ratio = parts[p]->deposit_ratio;
        d->vanished_residues += residue == 0.0 || fpclassify(residue) == FP_SUBNORMAL;
        d->percent_residue += residue;
        if (residue * ratio < d->error_bound)
            d->error_bound = residue * ratio;
        if (residue * ratio * ratio < d->tight_error_bound)
            d->tight_error_bound = residue * ratio * ratio;
    }
    d->max_residue = d->percent_residue / (1.0 - d->percent_residue);
    /* A residue that underflowed to zero carries nothing: avoid 0/0. */
    d->residue_ratio_part0 = d->percent_residue == 0.0 ? 0.0 : d->percent_residue / parts[0]->residue;
    d->order_violations = 0;
    d->first_violation_count = 0;
}

double calc_deposit(Problem *pb)
{
    Part *part0 = pb->mesh.partArray[0];
    DepositState *d = &pb->deposit;

    if (part0->update_count != 1) {
        if (d->order_violations++ == 0)
            d->first_violation_count = part0->update_count;
    }
    part0->update_count = 0;
    double residue = part0->residue * d->residue_ratio_part0;
    return (1.0 + residue) * d->partRatio;
}

/* Run by the team, each part by the thread that owns it under
 * schedule(static) (its first toucher when allocThreads == numThreads):
 * a serial reset of a mesh larger than the caches cost one thread two
 * passes over all of it before every measurement. Each part's result
 * depends on that part alone, so it is the same bit for bit. */
void reinitialize_parts(Problem *pb)
{
    const MeshShape *s = &pb->mesh.shape;
    Part **parts = pb->mesh.partArray;

#pragma omp parallel for schedule(static) num_threads(pb->numThreads > 0 ? pb->numThreads : 1)
    for (long p = 0; p < s->numParts; p++) {
        for (Zone *zone = parts[p]->firstZone; zone != NULL; zone = zone->nextZone)
            zone->value = 0.0;
        parts[p]->residue = 0.0;
        parts[p]->update_count = 0;
        update_part(parts[p], 0.0, s->flopScale);
    }
    pb->deposit.order_violations = 0;
    pb->deposit.first_violation_count = 0;
}

void sweep_parts_serially(Problem *pb)
{
    const MeshShape *s = &pb->mesh.shape;
    for (long p = 0; p < s->numParts; p++)
        update_part(pb->mesh.partArray[p], 0.0, s->flopScale);
}

/* The result goes somewhere the compiler must keep, or the calls vanish. */
static volatile double deposit_sink;

void run_fooled_calc_deposits(Problem *pb, long n)
{
    Part *part0 = pb->mesh.partArray[0];
    for (long i = 0; i < n; i++) {
        part0->update_count = 1;
        deposit_sink = calc_deposit(pb);
    }
}
