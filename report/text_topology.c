/* This job's cores as clomp counts them (numa/job_cores.h): the set-up's
 * "Job cores" line, and clomp --topology, whose "name: value" lines the
 * suite, make run and bench/node_check.sh read by name. */
#include "text_report.h"

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

void print_job_cores(FILE *out, const RunSetup *run)
{
    const JobCores *jc = &run->job;
    char sharing[160];
    fprintf(out, "        Job cores: %d (%d hardware thread%s", jc->cores, jc->hw_threads, plural(jc->hw_threads));
    if (jc->job.threads_per_core > 1)
        fprintf(out, ", SMT: up to %d per core", jc->job.threads_per_core);
    fprintf(out, "; %d socket%s, %d NUMA node%s, %d L3 domain%s): %s\n", jc->job.sockets, plural(jc->job.sockets),
            jc->job.numa_nodes, plural(jc->job.numa_nodes), jc->job.l3_domains, plural(jc->job.l3_domains),
            jc->counted_from);
    int shared = team_sharing(jc, run->team_threads, sharing, sizeof sharing);
    if (shared == 1)
        fprintf(out, "       SMT shared: %s\n", sharing);
    else if (shared == 2)
        fprintf(out, "   Oversubscribed: %s%s\n", sharing, run->oversubscribe ? " (--oversubscribe)" : "");
}

int print_topology(FILE *out, const JobCores *jc)
{
    fprintf(out, "cores: %d\n", jc->cores);
    fprintf(out, "hardware threads: %d\n", jc->hw_threads);
    fprintf(out, "threads per core: %d%s\n", jc->job.threads_per_core, jc->job.threads_per_core > 1 ? " (SMT)" : "");
    fprintf(out, "sockets: %d\n", jc->job.sockets);
    fprintf(out, "numa nodes: %d\n", jc->job.numa_nodes);
    fprintf(out, "l3 domains: %d\n", jc->job.l3_domains);
    if (jc->quota_cpus > 0)
        fprintf(out, "cpu quota: %.4g CPUs (cgroup cpu.max)\n", jc->quota_cpus);
    else
        fprintf(out, "cpu quota: none\n");
    if (jc->slurm_cpus > 0)
        fprintf(out, "slurm: %d CPUs on this node, counted in %s: %d cores\n", jc->slurm_cpus, jc->slurm_unit,
                jc->slurm_cores);
    else
        fprintf(out, "slurm: not in a Slurm job\n");
    fprintf(out, "node: %d cores, %d hardware threads online; %d socket%s, %d NUMA node%s, %d L3 domain%s\n",
            jc->node.cores, jc->node.hw_threads, jc->node.sockets, plural(jc->node.sockets), jc->node.numa_nodes,
            plural(jc->node.numa_nodes), jc->node.l3_domains, plural(jc->node.l3_domains));
    if (jc->load >= 0)
        fprintf(out, "load: %.2f (1-minute average)\nbusy: %s: load %.2f %s %.2f (0.1 x %d cores + 0.5)\n", jc->load,
                node_busy(jc) ? "yes" : "no", jc->load, node_busy(jc) ? "above" : "at most", jc->busy_above, jc->cores);
    else
        fprintf(out, "load: unknown (no proc/loadavg)\nbusy: unknown\n");
    if (jc->root[0] != '\0')
        fprintf(out, "read from: %s (CLOMP_TOPOLOGY_ROOT, a stand-in)\n", jc->root);
    fprintf(out, "counted from: %s\n", jc->counted_from);
    if (jc->cores >= 4) {
        char why[160];
        int outer, inner;
        default_nested_shape(jc, jc->cores, &outer, &inner, why, sizeof why);
        fprintf(out, "nested default: %dx%d at %d threads (%s)\n", outer, inner, jc->cores, why);
    } else {
        fprintf(out, "nested default: N/A at %d threads (needs at least 2x2 threads)\n", jc->cores);
    }
    return 0;
}
