/* The CLOMP kernel, defined once and inlined into every schedule so that all
 * of them run exactly the same instructions on a part. */
#ifndef CLOMP_UPDATE_PART_H
#define CLOMP_UPDATE_PART_H

#include "../mesh/mesh.h"

#if defined(__FAST_MATH__) || defined(__ASSOCIATIVE_MATH__) || defined(__RECIPROCAL_MATH__) || \
    (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "clomp verifies schedules bit for bit: unsafe floating-point optimisations would make that meaningless"
#endif

/* The product deposit = remaining_deposit * deposit_ratio. The offload
 * kernels define it first (offload/device_product.h: on an NVIDIA device it
 * must be rounded explicitly, or the driver's assembler fuses it with the
 * subtraction that follows and the zones differ from Serial Ref's). */
#ifndef CLOMP_DEPOSIT_PRODUCT
#define CLOMP_DEPOSIT_PRODUCT(a, b) ((a) * (b))
#endif

/* Spreads incoming_deposit down the part's zone list: each step moves
 * deposit_ratio of what remains into the zone; what is left is the residue. */
static inline void update_part(Part *part, double incoming_deposit, long flopScale)
{
    double deposit_ratio = part->deposit_ratio;
    double remaining_deposit = incoming_deposit;

    part->update_count++;

    if (flopScale == 1) {
        /* The common case gets its own loop: the faster the loop, the more
         * the threading overhead shows, which is what CLOMP measures. */
        for (Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone) {
            double deposit = CLOMP_DEPOSIT_PRODUCT(remaining_deposit, deposit_ratio);
            zone->value += deposit;
            remaining_deposit -= deposit;
        }
    } else {
        for (Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone) {
            for (long step = 0; step < flopScale; step++) {
                double deposit = CLOMP_DEPOSIT_PRODUCT(remaining_deposit, deposit_ratio);
                zone->value += deposit;
                remaining_deposit -= deposit;
            }
        }
    }
    part->residue = remaining_deposit;
}

#endif
