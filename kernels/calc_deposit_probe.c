/* calc_deposit: the serial work between parallel loops, timed on its own. */
#include "deposit.h"
#include "chunk_timer.h"
#include "schedule.h"

/* A call takes nanoseconds: split into chunks, the clock reads would be a
 * large part of what is timed, so it is timed whole (one chunk). */
static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)seen;
    chunk_timer_start(timer);
    run_fooled_calc_deposits(pb, subcycles);
    chunk_timer_stop(timer, 0);
}

static const char *const pseudocode[] = {
    "------ Start calc_deposit Pseudocode ------",
    "/* Measure *only* the serial calc_deposit() calls */",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  deposit = calc_deposit ();  /* its update_count check satisfied */",
    "------- End calc_deposit Pseudocode -------",
    NULL,
};

const Schedule schedule_calc_deposit = {"calc_deposit", "calc_deposit", ROLE_PROBE, 0, 0, pseudocode, run, NULL, 0, 0, 0, 0};
