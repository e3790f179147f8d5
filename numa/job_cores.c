/* The job's cores (job_cores.h): each source read on its own, then the
 * smallest bound wins and the sentence says which. */
#define _GNU_SOURCE
#include "job_cores.h"

#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "thread_placement.h"

extern char **environ;

/* One clause more of the sentence. */
__attribute__((format(printf, 2, 3))) static void say(JobCores *jc, const char *fmt, ...)
{
    size_t used = strlen(jc->counted_from);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(jc->counted_from + used, sizeof jc->counted_from - used, fmt, ap); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(ap);
}

/* The CPUs this process may run on. A stand-in root's proc/self/status says;
 * on the running system the main thread's mask, joined with the OpenMP
 * places: libgomp binds the initial thread to the first place as it loads
 * (OMP_PROC_BIND set), so the main thread's mask alone would be one core,
 * while the places cover every CPU the process was given. */
static int process_cpus(const char *root, unsigned char *mask)
{
    if (root[0] != '\0') {
        char text[8192];
        if (read_root_file(root, "/proc/self/status", text, sizeof text) != 0)
            return -1;
        const char *line = strstr(text, "Cpus_allowed_list:");
        if (line == NULL)
            return -1;
        line += strlen("Cpus_allowed_list:");
        line += strspn(line, " \t");
        return parse_cpu_list(line, mask, TOPOLOGY_MAX_CPUS);
    }
    cpu_set_t set;
    memset(mask, 0, TOPOLOGY_MAX_CPUS);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS && c < CPU_SETSIZE; c++)
        mask[c] = CPU_ISSET(c, &set) != 0;
    int ids[TOPOLOGY_MAX_CPUS];
    for (int p = 0; p < omp_get_num_places(); p++) {
        if (omp_get_place_num_procs(p) > TOPOLOGY_MAX_CPUS)
            continue;
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < omp_get_place_num_procs(p); i++)
            if (ids[i] >= 0 && ids[i] < TOPOLOGY_MAX_CPUS)
                mask[ids[i]] = 1;
    }
    int n = 0;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS; c++)
        n += mask[c];
    return n;
}

/* This process's cgroup path for a controller, from proc/self/cgroup: v2's
 * "0::PATH" when controller is NULL, else the v1 line whose controller list
 * holds it (its mount directory, e.g. "cpu,cpuacct", into dir). */
static int cgroup_path(const char *root, const char *controller, char *dir, size_t dir_size, char *path, size_t path_size)
{
    char text[4096];
    if (read_root_file(root, "/proc/self/cgroup", text, sizeof text) != 0)
        return -1;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *first = strchr(line, ':'), *second = first != NULL ? strchr(first + 1, ':') : NULL;
        if (second == NULL)
            continue;
        *first = *second = '\0';
        const char *list = first + 1;
        int match = controller == NULL ? strcmp(line, "0") == 0 && list[0] == '\0' : 0;
        if (controller != NULL && list[0] != '\0') {
            char copy[256];
            snprintf(copy, sizeof copy, "%s", list);
            for (char *save = NULL, *c = strtok_r(copy, ",", &save); c != NULL; c = strtok_r(NULL, ",", &save))
                match |= strcmp(c, controller) == 0;
        }
        if (!match)
            continue;
        snprintf(dir, dir_size, "%s", controller == NULL ? "" : list);
        snprintf(path, path_size, "%s", strcmp(second + 1, "/") == 0 ? "" : second + 1);
        return 0;
    }
    return -1;
}

/* The cgroup's cpuset (v2 cpuset.cpus.effective, v1 cpuset.effective_cpus), intersected into mask. */
static int apply_cpuset(const char *root, unsigned char *mask)
{
    static unsigned char set[TOPOLOGY_MAX_CPUS];
    char dir[128], path[512], file[700], text[4096];
    int found = 0;
    if (cgroup_path(root, NULL, dir, sizeof dir, path, sizeof path) == 0) {
        snprintf(file, sizeof file, "/sys/fs/cgroup%s/cpuset.cpus.effective", path);
        found = read_root_file(root, file, text, sizeof text) == 0;
    }
    if (!found && cgroup_path(root, "cpuset", dir, sizeof dir, path, sizeof path) == 0) {
        snprintf(file, sizeof file, "/sys/fs/cgroup/%s%s/cpuset.effective_cpus", dir, path);
        found = read_root_file(root, file, text, sizeof text) == 0;
    }
    if (!found || parse_cpu_list(text, set, TOPOLOGY_MAX_CPUS) <= 0)
        return 0;
    int narrowed = 0;
    for (int c = 0; c < TOPOLOGY_MAX_CPUS; c++)
        if (mask[c] && !set[c]) {
            mask[c] = 0;
            narrowed = 1;
        }
    return narrowed;
}

/* The smallest quota in CPUs (0: none) of the cgroup at PATH and its
 * ancestors: v2's cpu.max ("QUOTA PERIOD"; "max": none), or (dir given) v1's
 * cpu.cfs_quota_us / cpu.cfs_period_us in that controller's mount. */
static double quota_along(const char *root, const char *dir, char *path)
{
    char file[700], text[128];
    double best = 0;
    for (;;) {
        double quota = -1, period = -1;
        if (dir[0] == '\0') {
            snprintf(file, sizeof file, "/sys/fs/cgroup%s/cpu.max", path);
            char *end = text;
            if (read_root_file(root, file, text, sizeof text) == 0 && text[0] != 'm') {
                quota = strtod(text, &end);
                period = end != text ? strtod(end, NULL) : -1;
            }
        } else {
            snprintf(file, sizeof file, "/sys/fs/cgroup/%s%s/cpu.cfs_quota_us", dir, path);
            if (read_root_file(root, file, text, sizeof text) == 0)
                quota = strtod(text, NULL);
            snprintf(file, sizeof file, "/sys/fs/cgroup/%s%s/cpu.cfs_period_us", dir, path);
            if (read_root_file(root, file, text, sizeof text) == 0)
                period = strtod(text, NULL);
        }
        if (quota > 0 && period > 0 && (best == 0 || quota / period < best))
            best = quota / period;
        char *slash = strrchr(path, '/');
        if (slash == NULL)
            break;
        *slash = '\0';   /* the parent; "" is the hierarchy's root, read last */
    }
    return best;
}

/* The CPU quota in CPUs (0: none): cgroup v2's, else v1's (a hybrid system keeps cpu on v1). */
static double cpu_quota(const char *root)
{
    char dir[128], path[512];
    double quota = 0;
    if (cgroup_path(root, NULL, dir, sizeof dir, path, sizeof path) == 0)
        quota = quota_along(root, "", path);
    if (quota == 0 && cgroup_path(root, "cpu", dir, sizeof dir, path, sizeof path) == 0)
        quota = quota_along(root, dir, path);
    return quota;
}

/* `scontrol show node -o NAME` (no shell), into buf; -1 when it cannot be run. */
static int scontrol_node(const char *name, char *buf, size_t size)
{
    int pipe_fd[2];
    if (pipe(pipe_fd) != 0)
        return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    char *argv[] = {"scontrol", "show", "node", "-o", (char *)name, NULL};
    pid_t pid;
    int spawned = posix_spawnp(&pid, "scontrol", &actions, NULL, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&actions);
    close(pipe_fd[1]);
    size_t used = 0;
    ssize_t n;
    while (spawned && used + 1 < size && (n = read(pipe_fd[0], buf + used, size - 1 - used)) > 0)
        used += (size_t)n;
    buf[used] = '\0';
    close(pipe_fd[0]);
    int status = 0;
    if (spawned)
        waitpid(pid, &status, 0);
    return spawned && WIFEXITED(status) && WEXITSTATUS(status) == 0 && used > 0 ? 0 : -1;
}

static long field(const char *text, const char *name)
{
    const char *at = strstr(text, name);
    return at == NULL ? -1 : strtol(at + strlen(name), NULL, 10);
}

/* Slurm's CPUs on this node as cores: Slurm counts hardware threads where
 * the node is described with its threads (its default), cores where it is
 * configured with CPUs = cores. The job's CPU mask settles it when Slurm
 * confines the job (task/affinity, task/cgroup); else Slurm's description
 * of the node (scontrol show node); else hardware threads, said as assumed. */
static void read_slurm(JobCores *jc)
{
    const char *job = getenv("SLURM_JOB_ID"), *cpus = getenv("SLURM_CPUS_ON_NODE");
    char *end;
    long n = cpus != NULL ? strtol(cpus, &end, 10) : 0;
    if (job == NULL || job[0] == '\0' || cpus == NULL || end == cpus || *end != '\0' || n < 1 || n > 1 << 20)
        return;
    int tpc = jc->job.threads_per_core > 1 ? jc->job.threads_per_core : 1;
    jc->slurm_cpus = (int)n;
    if (tpc == 1) {
        jc->slurm_cores = (int)n;
        snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "cores (one hardware thread per core)");
    } else if (n == jc->job.hw_threads) {
        jc->slurm_cores = jc->job.cores;
        snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "hardware threads (as many as the job's CPU mask holds)");
    } else if (n == jc->job.cores) {
        jc->slurm_cores = (int)n;
        snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "cores (as many as the job's CPU mask has cores)");
    } else {
        char text[8192], host[256] = "";
        const char *name = getenv("SLURMD_NODENAME");
        if (name == NULL || name[0] == '\0') {
            gethostname(host, sizeof host - 1);
            host[strcspn(host, ".")] = '\0';
            name = host;
        }
        long total = -1, sockets = -1, per_socket = -1, threads = -1;
        if (scontrol_node(name, text, sizeof text) == 0) {
            total = field(text, "CPUTot=");
            sockets = field(text, "Sockets=");
            per_socket = field(text, "CoresPerSocket=");
            threads = field(text, "ThreadsPerCore=");
        }
        if (total > 0 && sockets > 0 && per_socket > 0 && threads > 1 && total == sockets * per_socket) {
            jc->slurm_cores = (int)n;
            snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "cores (scontrol: CPUTot=%ld = Sockets x CoresPerSocket)", total);
        } else if (total > 0 && threads > 1 && total == sockets * per_socket * threads) {
            jc->slurm_cores = (int)(n / threads > 0 ? n / threads : 1);
            snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "hardware threads (scontrol: ThreadsPerCore=%ld)", threads);
        } else {
            jc->slurm_cores = (int)(n / tpc > 0 ? n / tpc : 1);
            snprintf(jc->slurm_unit, sizeof jc->slurm_unit, "hardware threads, assumed (Slurm's default; scontrol did not say)");
        }
    }
}

void count_job_cores(int override, JobCores *jc)
{
    static NodeTopology topology;
    static unsigned char mask[TOPOLOGY_MAX_CPUS];
    memset(jc, 0, sizeof *jc);
    const char *root = getenv("CLOMP_TOPOLOGY_ROOT");
    snprintf(jc->root, sizeof jc->root, "%s", root != NULL ? root : "");
    jc->override = override;
    jc->known = read_node_topology(jc->root, &topology) == 0;
    int allowed = process_cpus(jc->root, mask);
    if (!jc->known) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        int n = allowed > 0 ? allowed : online > 0 ? (int)online : 1;
        jc->node.hw_threads = jc->node.cores = online > 0 ? (int)online : n;
        jc->job.hw_threads = jc->job.cores = n;
        jc->node.threads_per_core = jc->job.threads_per_core = 1;
        say(jc, "no CPU topology in %s/sys: each of the %d CPUs this process may use counted as a core", jc->root, n);
    } else {
        count_domains(&topology, NULL, &jc->node);
        int narrowed = allowed > 0 ? apply_cpuset(jc->root, mask) : 0;
        count_domains(&topology, allowed > 0 ? mask : NULL, &jc->job);
        if (jc->job.hw_threads == 0)   /* a mask of CPUs not online: the online ones */
            count_domains(&topology, NULL, &jc->job);
        say(jc, "the %d CPU%s of this process's %s%s", jc->job.hw_threads, jc->job.hw_threads == 1 ? "" : "s",
            allowed > 0 ? "affinity mask" : "node", narrowed ? " and cgroup cpuset" : "");
        if (jc->job.hw_threads < jc->node.hw_threads)
            say(jc, " (of %d online)", jc->node.hw_threads);
        if (jc->job.threads_per_core > 1)
            say(jc, " %s %d core%s with up to %d hardware threads each (SMT)", jc->job.hw_threads == 1 ? "is" : "are",
                jc->job.cores, jc->job.cores == 1 ? "" : "s", jc->job.threads_per_core);
        else
            say(jc, " %s %d core%s", jc->job.hw_threads == 1 ? "is" : "are", jc->job.cores, jc->job.cores == 1 ? "" : "s");
    }
    jc->cores = jc->job.cores;
    jc->hw_threads = jc->job.hw_threads;
    jc->quota_cpus = cpu_quota(jc->root);
    if (jc->quota_cpus > 0) {
        int cap = jc->quota_cpus >= 1 ? (int)floor(jc->quota_cpus + 1e-9) : 1;
        say(jc, "; the cgroup's CPU quota (cpu.max) allows %.4g CPUs", jc->quota_cpus);
        if (cap < jc->cores) {
            jc->cores = cap;
            say(jc, ": %d core%s", cap, cap == 1 ? "" : "s");
        }
        int threads = (int)ceil(jc->quota_cpus - 1e-9);
        if (threads >= 1 && threads < jc->hw_threads)
            jc->hw_threads = threads;
    }
    read_slurm(jc);
    if (jc->slurm_cpus > 0) {
        say(jc, "; Slurm: %d CPUs on this node (SLURM_CPUS_ON_NODE), counted in %s", jc->slurm_cpus, jc->slurm_unit);
        if (jc->slurm_cores < jc->cores) {
            jc->cores = jc->slurm_cores;
            say(jc, ": %d core%s", jc->cores, jc->cores == 1 ? "" : "s");
        }
    }
    if (jc->cores < 1)
        jc->cores = 1;
    if (jc->hw_threads < jc->cores)
        jc->hw_threads = jc->cores;
    if (override > 0) {
        say(jc, "; --cores %d given: %d", override, override);
        jc->cores = override;
        if (jc->hw_threads < override)
            jc->hw_threads = override;
    }
    char text[128];
    jc->load = read_root_file(jc->root, "/proc/loadavg", text, sizeof text) == 0 ? strtod(text, NULL) : -1;
    jc->busy_above = 0.1 * jc->cores + 0.5;
}

int node_busy(const JobCores *jc)
{
    return jc->load > jc->busy_above;
}

void default_nested_shape(const JobCores *jc, long threads, int *outer, int *inner, char *why, size_t why_size)
{
    const char *unit[] = {"NUMA node", "socket", "L3 domain"};
    int count[] = {jc->job.numa_nodes, jc->job.sockets, jc->job.l3_domains};
    for (int k = 0; k < 3; k++)
        if (count[k] >= 2 && threads % count[k] == 0 && threads / count[k] >= 2) {
            *outer = count[k];
            *inner = (int)(threads / count[k]);
            snprintf(why, why_size, "default: one outer thread per %s of this job's CPUs (%d), %d inner each", unit[k],
                     count[k], *inner);
            return;
        }
    *outer = 2;
    *inner = (int)(threads / 2);
    snprintf(why, why_size, "default: two halves, as this job's CPUs are on %d NUMA node%s, %d socket%s and %d L3 domain%s",
             count[0], count[0] == 1 ? "" : "s", count[1], count[1] == 1 ? "" : "s", count[2], count[2] == 1 ? "" : "s");
}

int team_sharing(const JobCores *jc, long threads, char *buf, size_t size)
{
    buf[0] = '\0';
    if (threads <= jc->cores)
        return 0;
    if (threads <= jc->hw_threads && jc->job.threads_per_core > 1) {
        snprintf(buf, size, "%ld threads on %d core%s: SMT, up to %d hardware threads of a core share its execution units",
                 threads, jc->cores, jc->cores == 1 ? "" : "s", jc->job.threads_per_core);
        return 1;
    }
    snprintf(buf, size, "%ld threads on %d hardware thread%s (%d core%s): they time-share them", threads, jc->hw_threads,
             jc->hw_threads == 1 ? "" : "s", jc->cores, jc->cores == 1 ? "" : "s");
    return 2;
}
