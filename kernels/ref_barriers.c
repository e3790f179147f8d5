/* The table of reference barriers (ref_barrier.h): a new one is its file
 * and a line here. */
#include <stdlib.h>

#include "ref_barrier.h"

const RefBarrierKind *const ref_barrier_kinds[] = {
    &ref_central_barrier,
    &ref_dissemination_barrier,
    &ref_tournament_barrier,
};
const size_t ref_barrier_kind_count = sizeof ref_barrier_kinds / sizeof ref_barrier_kinds[0];

int ref_rounds(int threads)
{
    int rounds = 0;
    while (rounds < 31 && (1 << rounds) < threads)
        rounds++;
    return rounds;
}

void ref_barrier_free(RefBarrier *b)
{
    free(b);
}
