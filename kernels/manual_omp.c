/* Manual OMP: one parallel region for the whole run; threads partition the
 * parts by hand and synchronise with a barrier and a single per subcycle. */
#include "cycle.h"
#include "deposit.h"
#include "fault.h"
#include "owned_check.h"
#include "schedule.h"
#include "slice.h"
#include "update_part.h"

/* The deposit the single computes and the whole team reads: a static, as
 * in CLOMP 1.2, not a variable on the main thread's stack (a line the main
 * thread keeps writing), and on a cache line of its own. */
static _Alignas(64) double shared_deposit;

/* Run by every thread of the team on its own slice [start, end]. */
#define MANUAL_SUBCYCLE(k)                                                              \
    {                                                                                   \
        /* Every thread must have finished its parts before part 0's                    \
         * residue is read for the next deposit. */                                     \
        if (!SKIP_BARRIER(CLOMP_SUBCYCLE_INDEX(it, k))) {                                                        \
            _Pragma("omp barrier")                                                      \
        }                                                                               \
        _Pragma("omp single")                                                           \
        shared_deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                                          \
        DELAY_THREAD(CLOMP_SUBCYCLE_INDEX(it, k));                                                               \
        Part **parts = pb->mesh.partArray;                                              \
        long flopScale = pb->mesh.shape.flopScale;                                      \
        for (long p = start; p <= end; p++)                                             \
            UPDATE_PART(parts[p], shared_deposit, flopScale, CLOMP_SUBCYCLE_INDEX(it, k));                             \
    }

CLOMP_MODULES(manual, (Problem *pb, long it, long start, long end), (pb, it, start, end), MANUAL_SUBCYCLE)

/* Inside the region, between two chunks: every thread has finished the
 * chunk's last subcycle; thread 0 stops the clock, each thread checks its
 * own slice, thread 0 concludes, and the next chunk's clock starts once
 * every thread is back (all of them awake: they just left a barrier). */
static void verify_between_chunks(ChunkTimer *timer, long c, long start, long end)
{
#pragma omp barrier
    if (omp_get_thread_num() == 0)
        chunk_timer_stop(timer, c);
    if (chunk_timer_verifies(timer)) {
        if (start <= end)
            timer->verify->check_parts(timer->verify->context, c, start, end);
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            timer->verify->conclude(timer->verify->context, c);
    }
#pragma omp barrier
    if (omp_get_thread_num() == 0)
        chunk_timer_start(timer);
}

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    long chunks = chunk_count(timer);

    chunk_timer_start(timer);
#pragma omp parallel
    {
        long start, end;
        claim_thread_slice(pb->mesh.shape.numParts, seen, &start, &end);
        for (long c = 0, it = 0; c < chunks; c++) {
            for (long last = chunk_end_iteration(timer, c, subcycles); it < last; it++)
                manual_cycle(pb, it, start, end);
            /* The last chunk closes after the region, so that it includes
             * the join as CLOMP 1.2's single timing does. */
            if (c < chunks - 1)
                verify_between_chunks(timer, c, start, end);
        }
    }
    chunk_timer_stop(timer, chunks - 1);
    if (chunk_timer_verifies(timer))
        verify_slice_owners(timer, chunks - 1, pb->mesh.shape.numParts, pb->numThreads);
}

static const char *const pseudocode[] = {
    "------ Start Manual OMP Pseudocode ------",
    "/* At top level, spawn threads and manually partition parts */",
    "#pragma omp parallel",
    "{",
    "  /* startPidx..endPidx: this thread's slice of the parts */",
    "  for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  {",
    "    #pragma omp barrier /* All threads must finish first! */",
    "    #pragma omp single  /* Only one thread calcs deposit! */",
    "    deposit = calc_deposit (); /* implicit barrier after single */",
    "    for (pidx = startPidx; pidx lte endPidx; pidx++)",
    "      update_part (partArray[pidx], deposit);",
    "  }",
    "}",
    "------- End Manual OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_manual_omp = {"Manual OMP", "manual", ROLE_CHECKED, 1, 1, pseudocode, run, NULL, 0, 0, 0, 0};
