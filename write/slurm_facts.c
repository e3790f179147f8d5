/* The suite inside a Slurm allocation (clomp-write slurm, called by
 * suite/slurm.sh; docs/slurm.md): the job facts for the .env file (and so the
 * HTML report and the bundle) and the warning when the node is shared. The
 * job's own facts come from Slurm's environment, the rest from squeue when it
 * answers. Here rather than in the driver's shell because a suite runs on a
 * node without python3 too. */
#define _POSIX_C_SOURCE 200809L
#include "slurm_facts.h"
#include "text_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What ARGV prints on standard output (its errors, or its absence, dropped),
 * allocated; "" when it cannot run. */
static char *output_of(char *const argv[])
{
    int fds[2];
    char *text = calloc(1, 1);
    size_t len = 0;
    if (!text || pipe(fds) != 0)
        return text;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(fds[1], 1);
        if (null >= 0)
            dup2(null, 2), dup2(null, 0);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    for (char buf[4096];;) {
        ssize_t n = pid > 0 ? read(fds[0], buf, sizeof buf) : 0;
        if (n <= 0)
            break;
        char *grown = realloc(text, len + (size_t)n + 1);
        if (!grown)
            break;
        text = grown;
        memcpy(text + len, buf, (size_t)n);
        text[len += (size_t)n] = '\0';
    }
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return text;
}

/* "exclusive" is Slurm's OverSubscribe=NO (sbatch --exclusive, or a partition
 * that never shares): yes, no (OverSubscribe=...), or unknown. Allocated. */
static char *exclusive(void)
{
    char *argv[] = {"squeue", "-h", "-j", (char *)env_or_empty("SLURM_JOB_ID"), "-o", "%h", NULL};
    char *h = output_of(argv), *answer = NULL;
    h[strcspn(h, "\n")] = '\0';
    if (strcmp(h, "NO") == 0)
        answer = strdup("yes");
    else if (!*h)
        answer = strdup("unknown");
    else if ((answer = malloc(strlen(h) + 32)))
        sprintf(answer, "no (OverSubscribe=%s)", h);
    free(h);
    return answer;
}

/* The other jobs running on this node now, as "ID ID ...", or "". Allocated. */
static char *other_jobs(void)
{
    char *node = NULL;
    if (*env_or_empty("SLURMD_NODENAME"))
        node = strdup(env_or_empty("SLURMD_NODENAME"));
    else {
        char *argv[] = {"hostname", "-s", NULL};
        node = output_of(argv);
        size_t len = strlen(node);
        while (len > 0 && node[len - 1] == '\n')
            node[--len] = '\0';
    }
    char *argv[] = {"squeue", "-h", "-w", node, "-t", "R", "-o", "%i", NULL};
    char *list = output_of(argv);
    free(node);
    /* every line but the job's own, each followed by a space, less the last space */
    char *jobs = malloc(strlen(list) + 2);
    size_t out = 0;
    for (const char *line = list; jobs && *line;) {
        size_t len = strcspn(line, "\n");
        const char *id = env_or_empty("SLURM_JOB_ID");
        if (len != strlen(id) || strncmp(line, id, len) != 0) {
            memcpy(jobs + out, line, len);
            out += len;
            jobs[out++] = ' ';
        }
        line += len + (line[len] == '\n');
    }
    if (jobs)
        jobs[out > 0 ? out - 1 : 0] = '\0';
    free(list);
    return jobs;
}

static int env_lines(const char *cores)
{
    const char *id = env_or_empty("SLURM_JOB_ID");
    if (!*id) {
        printf("slurm job: none\n");
        return 0;
    }
    const char *name = env_or_empty("SLURM_JOB_NAME"), *cluster = env_or_empty("SLURM_CLUSTER_NAME");
    printf("slurm job: %s%s%s%s%s%s\n", id, *name ? " (" : "", name, *name ? ")" : "", *cluster ? " on cluster " : "",
           cluster);
    const char *nodes = env_or_empty("SLURM_JOB_NODELIST");
    if (!*nodes)
        nodes = env_or_empty("SLURM_NODELIST");
    const char *count = env_or_empty("SLURM_JOB_NUM_NODES");
    printf("slurm nodes: %s (%s node(s))\n", *nodes ? nodes : "unknown", *count ? count : "?");
    const char *cpus = env_or_empty("SLURM_CPUS_ON_NODE"), *per_task = env_or_empty("SLURM_CPUS_PER_TASK");
    const char *tasks = env_or_empty("SLURM_NTASKS");
    printf("slurm cpus: %s on this node%s%s%s%s%s%s; suite cores: %s\n", *cpus ? cpus : "?", *per_task ? ", " : "",
           per_task, *per_task ? " per task" : "", *tasks ? ", " : "", tasks, *tasks ? " task(s)" : "", cores);
    char *answer = exclusive(), *others = other_jobs();
    printf("slurm exclusive: %s\n", answer ? answer : "unknown");
    printf("slurm other jobs on node: %s\n", others && *others ? others : "none");
    free(answer);
    free(others);
    return 0;
}

/* The preflight's warning when the node is shared, or nothing. */
static int preflight(void)
{
    const char *id = env_or_empty("SLURM_JOB_ID");
    if (!*id)
        return 0;
    char *answer = exclusive(), *others = other_jobs();
    if (others && *others)
        printf("Slurm job %s shares its node with job(s) %s: the node is not dedicated (submit with sbatch --exclusive)\n",
               id, others);
    else if (answer && strncmp(answer, "no", 2) == 0)
        printf("Slurm job %s is not exclusive (%s): other jobs may start on its node (submit with sbatch --exclusive)\n",
               id, answer);
    free(answer);
    free(others);
    return 0;
}

int slurm_main(int argc, char **argv)
{
    int status;
    if (argc == 2 && strcmp(argv[0], "lines") == 0)
        status = env_lines(argv[1]);
    else if (argc == 1 && strcmp(argv[0], "preflight") == 0)
        status = preflight();
    else {
        fprintf(stderr, "usage: clomp-write slurm lines CORES | preflight   (the Slurm job's facts for the .env\n"
                        "       and its preflight warning: write/slurm_facts.c)\n");
        return 2;
    }
    return fflush(stdout) == 0 ? status : 3;
}
