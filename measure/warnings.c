#include "warnings.h"

#include "ompt_plan.h"

#include <string.h>
#include <unistd.h>

void measurement_warnings(const RunSetup *run, Measurement *m)
{
    const Schedule *s = m->schedule;
    const TeamObservation *t = &m->team;
    WarningList *w = &m->warnings;
    memset(w, 0, sizeof *w);

    if (t->nested) {
        int threads, distinct = team_distinct_cpus(t, &threads);
        /* With more threads than CPUs sharing is unavoidable (the header says so). */
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (t->cpu_slots > 0 && distinct < threads && (cpus <= 0 || distinct < cpus))
            add_warning(w, WARNING_LINE, "the inner teams share CPUs (%d distinct for %d threads): for nested "
                              "runs bind with OMP_PROC_BIND=spread,close and OMP_PLACES=cores", distinct, threads);
        if (run->nestedInner > 1 && t->inner_max <= 1)
            add_warning(w, WARNING_LINE, "the OpenMP runtime serialised the inner teams: each group ran on one thread");
        else if (t->inner_min < run->nestedInner && t->inner_max > 0)
            add_warning(w, WARNING_LINE, "some inner teams got fewer threads than requested");
    }
    if (t->idle_threads > 0)
        add_warning(w, WARNING_LINE, "%d of %d threads got no parts (numParts %ld < numThreads)", t->idle_threads, t->threads,
                    run->numParts);
    if (m->subnormals > 0)
        add_warning(w, WARNING_LINE, "%ld subnormal zone values/residues: subnormal arithmetic "
                          "is slow on many CPUs and distorts this timing", m->subnormals);
    m->noisy = s->chunked && m->stats.n >= 2 && m->stats.cv > CLOMP_NOISY_CV;
    if (m->noisy)
        add_warning(w, WARNING_LINE, "noisy measurement: chunk times vary by CV %.0f%% (> %.0f%%); likely causes: "
                          "the node is not idle, unbound threads (set OMP_PROC_BIND and OMP_PLACES), "
                          "frequency changes; see docs/statistics.md",
                    m->stats.cv * 100.0, CLOMP_NOISY_CV * 100.0);
    ompt_census_check(run, m);
}

/* From the residues of the set-up update (calibrate_deposit counted them):
 * the mesh's own residues are long overwritten by then. */
void mesh_setup_warnings(const Problem *pb, WarningList *list)
{
    long vanished = pb->deposit.vanished_residues;
    if (vanished > 0)
        add_warning(list, WARNING_LINE, "%ld part residues underflow in set-up: every update runs through "
                             "subnormal values (slow on many CPUs) and the carried residue is lost", vanished);
}

void locality_setup_warnings(const LocalitySummary *locality, WarningList *list)
{
    if (locality->measured && !locality->threads_bound)
        add_warning(list, WARNING_SAID_OTHERWISE, "threads are not bound (OMP_PROC_BIND unset or false): they may migrate");
}

void team_placement_warnings(const TeamPlacement *tp, const JobCores *job, WarningList *list)
{
    if (!tp->observed)
        return;
    const char *cores = job->cores == 1 ? "core" : "cores";
    if (tp->threads > job->cores && tp->threads <= job->hw_threads && job->job.threads_per_core > 1)
        add_warning(list, WARNING_WITH_PLACEMENT, "the team of %d threads is larger than the %d %s of this job: with SMT "
                                   "(up to %d hardware threads per core) threads share a core's execution units, each on "
                                   "a hardware thread of its own", tp->threads, job->cores, cores, job->job.threads_per_core);
    else if (tp->threads > job->cores)
        add_warning(list, WARNING_WITH_PLACEMENT, "the team of %d threads is larger than the %d %s (%d hardware threads) of "
                                   "this job: threads time-share them, and every barrier waits for a descheduled thread",
                    tp->threads, job->cores, cores, job->hw_threads);
    if (tp->shared_core_threads > 0)
        add_warning(list, WARNING_WITH_PLACEMENT, "%d of %d threads share a core with another thread of the team (e.g. threads %d "
                                   "and %d): they compete for one core", tp->shared_core_threads, tp->threads,
                    tp->first_shared[0], tp->first_shared[1]);
    if (tp->unbound_threads > 0)
        add_warning(list, WARNING_WITH_PLACEMENT, "%d of %d threads are not bound to a core (each may run on several): set "
                                   "OMP_PROC_BIND and OMP_PLACES (e.g. close and cores)", tp->unbound_threads,
                    tp->threads);
}
