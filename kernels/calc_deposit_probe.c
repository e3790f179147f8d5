/* calc_deposit: the serial work between parallel loops, timed on its own. */
#include "deposit.h"
#include "schedule.h"

static void run(Problem *pb, long subcycles, TeamObservation *seen)
{
    (void)seen;
    run_fooled_calc_deposits(pb, subcycles);
}

static const char *const pseudocode[] = {
    "------ Start calc_deposit Pseudocode ------",
    "/* Measure *only* the serial calc_deposit() calls */",
    "for (subcycle = 0; subcycle lt num_iterations*10; subcycle++)",
    "  deposit = calc_deposit ();  /* its update_count check satisfied */",
    "------- End calc_deposit Pseudocode -------",
    NULL,
};

const Schedule schedule_calc_deposit = {"calc_deposit", ROLE_PROBE, 0, pseudocode, run};
