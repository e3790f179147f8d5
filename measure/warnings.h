/* The WARNING lines of a run, found from its figures when they are
 * computed (not while printing): every report lists the same ones. */
#ifndef CLOMP_WARNINGS_H
#define CLOMP_WARNINGS_H

#include "record.h"

/* A summarized measurement's warnings (team shape, idle threads, subnormal
 * values, noisy chunks), replacing any it had. */
void measurement_warnings(const RunSetup *run, Measurement *m);

/* Set-up warnings known once the mesh is built: part residues that
 * underflow in the set-up update (pb->deposit.vanished_residues). */
void mesh_setup_warnings(const Problem *pb, WarningList *list);

/* Set-up warnings from the locality measurement: unbound threads (the text
 * report's locality lines say it in their own words). */
void locality_setup_warnings(const LocalitySummary *locality, WarningList *list);

/* The placement table's warnings: a team larger than the job's cores (SMT
 * named as SMT), threads sharing a core, threads not bound to one; nothing
 * when not observed. */
void team_placement_warnings(const TeamPlacement *tp, const JobCores *job, WarningList *list);

#endif
