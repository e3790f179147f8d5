#include "warnings.h"

#include <math.h>
#include <string.h>

void measurement_warnings(const RunSetup *run, Measurement *m)
{
    const Schedule *s = m->schedule;
    const TeamObservation *t = &m->team;
    WarningList *w = &m->warnings;
    memset(w, 0, sizeof *w);

    if (t->nested) {
        if (run->nestedInner > 1 && t->inner_max <= 1)
            add_warning(w, 1, "the OpenMP runtime serialised the inner teams: each group ran on one thread");
        else if (t->inner_min < run->nestedInner && t->inner_max > 0)
            add_warning(w, 1, "some inner teams got fewer threads than requested");
    }
    if (t->idle_threads > 0)
        add_warning(w, 1, "%d of %d threads got no parts (numParts %ld < numThreads)", t->idle_threads, t->threads,
                    run->numParts);
    if (m->subnormals > 0)
        add_warning(w, 1, "%ld subnormal zone values/residues: subnormal arithmetic "
                          "is slow on many CPUs and distorts this timing", m->subnormals);
    if (s->chunked && m->stats.n >= 2 && m->stats.cv > CLOMP_NOISY_CV)
        add_warning(w, 1, "noisy measurement: chunk times vary by CV %.0f%% (> %.0f%%); likely causes: "
                          "the node is not idle, unbound threads (set OMP_PROC_BIND and OMP_PLACES), "
                          "frequency changes; see docs/statistics.md",
                    m->stats.cv * 100.0, CLOMP_NOISY_CV * 100.0);
}

void mesh_setup_warnings(const Problem *pb, WarningList *list)
{
    long vanished = 0;
    for (long p = 0; p < pb->mesh.shape.numParts; p++)
        vanished += pb->mesh.partArray[p]->residue == 0.0 || fpclassify(pb->mesh.partArray[p]->residue) == FP_SUBNORMAL;
    if (vanished > 0)
        add_warning(list, 1, "%ld part residues underflow in set-up: every update runs through "
                             "subnormal values (slow on many CPUs) and the carried residue is lost", vanished);
}

void locality_setup_warnings(const LocalitySummary *locality, WarningList *list)
{
    if (locality->measured && !locality->threads_bound)
        add_warning(list, 0, "threads are not bound (OMP_PROC_BIND unset or false): they may migrate");
}
