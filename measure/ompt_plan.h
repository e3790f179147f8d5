/* What each schedule's warm-up should create, as the OMPT census counts it,
 * and the warnings when the runtime did otherwise (or its tool interface
 * told a sampler something inconsistent). */
#ifndef CLOMP_OMPT_PLAN_H
#define CLOMP_OMPT_PLAN_H

#include "record.h"

/* Fills m->census's plan and whether it matched, and adds the census and
 * sampling warnings to m->warnings. Nothing without a census. */
void ompt_census_check(const RunSetup *run, Measurement *m);

#endif
