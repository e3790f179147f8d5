/* OMP Parallel: the cost of starting and ending a parallel region (fork and
 * join), which Static, Dynamic and Nested OMP pay on every subcycle; shown
 * next to the barrier cost so the two can be told apart. Not in CLOMP 1.2:
 * it runs last and its summary column comes after 1.2's. */
#include <omp.h>

#include "chunk_timer.h"
#include "schedule.h"

/* The region's only work: a store the compiler must keep, so that the
 * region cannot be elided. The observation's team check is one predictable
 * branch against a fork and join of microseconds. */
static volatile int region_sink;

static void empty_regions(TeamObservation *seen)
{
    for (int s = 0; s < SUBCYCLES_PER_ITERATION; s++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0) {
                region_sink = 1;
                if (seen != NULL)
                    seen->threads = omp_get_num_threads();
            }
        }
    }
}

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)pb;
#define ITERATION(it) empty_regions(seen)
#define VERIFY(c) (void)(c)
    RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)
}

static const char *const pseudocode[] = {
    "------ Start OMP Parallel Pseudocode ------",
    "/* Measure *only* OpenMP fork/join cost (clomp addition) */",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  #pragma omp parallel",
    "  { /* empty */ }",
    "------- End OMP Parallel Pseudocode -------",
    NULL,
};

const Schedule schedule_omp_parallel = {"OMP Parallel", "parallel", ROLE_PROBE, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
