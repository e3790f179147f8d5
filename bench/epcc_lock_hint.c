/* bench/constructs.sh: omp_init_lock_with_hint for EPCC 4.0's syncbench, linked
 * only where the runtime lacks it (libgomp up to at least GCC 12 declares it
 * in omp.h but does not define it). OpenMP 4.5 lets an implementation ignore a
 * lock hint, and this is that: a plain lock. clomp's hinted rows say "not
 * provided" on such a runtime, so the table leaves them out of the count. */
#include <omp.h>

void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint)
{
    (void)hint;
    omp_init_lock(lock);
}
