/* The suite's preflight warnings about the node (clomp-write preflight, called
 * by suite/env_file.sh's check_preflight), one a line, in the order the .env
 * lists them: threads not bound, a wait policy that sleeps, a busy node, a CPU
 * frequency governor other than performance, automatic NUMA balancing, a
 * shared Slurm node (write/slurm_facts.c), more threads than cores, and in a
 * hybrid suite the first run whose ranks crowd a node (write/launcher.c).
 * Here rather than in the driver's shell because a suite runs on a node
 * without python3 too.
 *
 * CLOMP_PREFLIGHT_ROOT, when set, is prefixed to the /proc and /sys paths read
 * (tests/preflight.t's stand-in files), as CLOMP_TOPOLOGY_ROOT is for clomp. */
#define _POSIX_C_SOURCE 200809L
#include "preflight.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "launcher.h"
#include "slurm_facts.h"
#include "text_file.h"

/* A file's text less its trailing newlines, as the driver's $(cat FILE) took
 * it; NULL when it cannot be read. Allocated. */
static char *file_text(const char *path)
{
    const char *root = getenv("CLOMP_PREFLIGHT_ROOT");
    char full[1024], *text = NULL;
    size_t size = 0;
    ssize_t n;
    snprintf(full, sizeof full, "%s%s", root ? root : "", path);
    FILE *f = fopen(full, "r");
    if (!f)
        return NULL;
    FILE *out = open_memstream(&text, &size);
    char buf[4096];
    while (out && (n = (ssize_t)fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, (size_t)n, out);
    int failed = ferror(f);
    fclose(f);
    if (!out || fclose(out) != 0 || failed)
        return free(text), NULL;
    while (size > 0 && text[size - 1] == '\n')
        text[--size] = '\0';
    return text;
}

/* The load average's first figure (each line's first field, as cut -f1 gives
 * them), or "0" where /proc/loadavg cannot be read. Allocated. */
static char *load_average(void)
{
    char *text = file_text("/proc/loadavg");
    if (!text)
        return strdup("0");
    size_t out = 0;
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n"), field = strcspn(line, " \n");
        memmove(text + out, line, field);
        out += field;
        line += len;
        if (*line == '\n')
            text[out++] = '\n', line++;
    }
    while (out > 0 && text[out - 1] == '\n')
        out--;
    text[out] = '\0';
    return text;
}

/* Whether LOAD is above a tenth of the cores plus a half: awk's comparison,
 * numeric where LOAD reads as a number, else of the two as text. */
static int busy(const char *load, long long cores)
{
    double limit = 0.1 * (double)cores + 0.5;
    char *end, limit_text[64];
    double value = strtod(load, &end);
    if (end != load && end[strspn(end, " \t\n")] == '\0' && load[strspn(load, " \t\n")] != '\0')
        return value > limit;
    snprintf(limit_text, sizeof limit_text, "%.6g", limit);
    return strcmp(load, limit_text) > 0;
}

int preflight_main(int argc, char **argv)
{
    char *end;
    long long cores = argc >= 2 ? strtoll(argv[0], &end, 10) : 0;
    if (argc < 2 || argc == 3 || *end) {
        fprintf(stderr, "usage: clomp-write preflight CORES MAX_THREADS [MPI_LAUNCHER MPI_RANKS PLAN_LINE...]\n");
        return 2;
    }
    char bind[4096];
    snprintf(bind, sizeof bind, "%s%s", env_or_empty("OMP_PROC_BIND"), env_or_empty("KMP_AFFINITY"));
    if (!*bind || strcasecmp(bind, "false") == 0)
        printf("threads not bound (OMP_PROC_BIND unset or false): they may migrate mid-run\n");
    if (strcasecmp(env_or_empty("OMP_WAIT_POLICY"), "passive") == 0)
        printf("OMP_WAIT_POLICY=passive: sleeping threads add wake-up time to every loop\n");
    if (strcmp(env_or_empty("KMP_BLOCKTIME"), "0") == 0)
        printf("KMP_BLOCKTIME=0: libomp threads sleep at once, like a passive wait policy\n");
    if (strcmp(env_or_empty("GOMP_SPINCOUNT"), "0") == 0)
        printf("GOMP_SPINCOUNT=0: libgomp threads sleep at once, like a passive wait policy\n");
    char *load = load_average();
    if (load && busy(load, cores))
        printf("load average %s on %lld cores: the node is not dedicated\n", load, cores);
    free(load);
    char *governor = file_text("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
    if (governor && *governor && strcmp(governor, "performance") != 0)
        printf("CPU frequency governor is '%s', not 'performance'\n", governor);
    free(governor);
    char *balancing = file_text("/proc/sys/kernel/numa_balancing");
    if (balancing && strcmp(balancing, "0") != 0)
        printf("automatic NUMA balancing is on: pages may move during runs\n");
    free(balancing);
    fflush(stdout);
    char *slurm[] = {"preflight", NULL};
    slurm_main(1, slurm);
    if (strtoll(argv[1], NULL, 10) > cores)
        printf("%s threads requested on %lld cores: oversubscribed\n", argv[1], cores);
    if (argc == 2)
        return fflush(stdout) == 0 ? 0 : 3;
    /* launcher crowded CMD RANKS MAX_THREADS CORES PLAN_LINE... */
    char **crowded = calloc((size_t)argc + 3, sizeof *crowded);
    if (!crowded)
        return 3;
    crowded[0] = "crowded", crowded[1] = argv[2], crowded[2] = argv[3], crowded[3] = argv[1], crowded[4] = argv[0];
    for (int i = 4; i < argc; i++)
        crowded[i + 1] = argv[i];
    int status = launcher_main(argc + 1, crowded);
    free(crowded);
    return status;
}
