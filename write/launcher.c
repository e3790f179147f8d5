/* The MPI launcher as the suite reads it (clomp-write launcher, called by
 * suite/plan.sh, suite/env_file.sh): the rank count a launcher command gives,
 * the same command with another count (a packed layout), how many of its ranks
 * share a node, the CPU binding an srun launcher asks for, and from the plan
 * (its "SET|POLICY|ARGS" lines) the rank layout of every run and the first run
 * that would put more threads on a node than it has cores. Here rather than in
 * the driver's shell because it must work on a node without python3.
 *
 * A command is read as bash's `read -r -a` reads it: its first line, split at
 * blanks, so that the words are those the driver launches. */
#define _POSIX_C_SOURCE 200809L
#include "launcher.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_root.h"

#define MAX_WORDS 512

struct words {
    char *text;
    char *w[MAX_WORDS];
    int n;
};

static int split_words(const char *command, struct words *out)
{
    size_t len = strcspn(command, "\n");
    out->n = 0;
    out->text = malloc(len + 1);
    if (!out->text)
        return -1;
    memcpy(out->text, command, len);
    out->text[len] = '\0';
    for (char *p = out->text;;) {
        p += strspn(p, " \t");
        if (!*p)
            break;
        if (out->n == MAX_WORDS) {
            fprintf(stderr, "clomp-write: launcher: more than %d words\n", MAX_WORDS);
            return -1;
        }
        out->w[out->n++] = p;
        p += strcspn(p, " \t");
        if (*p)
            *p++ = '\0';
    }
    return 0;
}

static int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }
static int is_one_of(const char *s, const char *const *set)
{
    for (; *set; set++)
        if (strcmp(s, *set) == 0)
            return 1;
    return 0;
}
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
static const char *word_after(const struct words *c, int k, const char *absent)
{
    return k + 1 < c->n && c->w[k + 1] != NULL ? c->w[k + 1] : absent;
}

/* The rank count the command gives: the first of -np N, -n N, --np N,
 * --ntasks N, --ntasks=N, -nN, or "". With REPLACE, OUT (when not NULL) gets
 * the command with every such count replaced by REPLACE. */
static const char *launcher_ranks(const struct words *c, const char *replace, FILE *out)
{
    static const char *const spaced[] = {"-np", "-n", "--np", "--ntasks", NULL};
    const char *count = "";
    int found = 0;
    const char *sep = "";
    for (int k = 0; k < c->n; k++) {
        const char *w = c->w[k];
        const char *given;
        if (is_one_of(w, spaced)) {
            given = word_after(c, k, "");
            if (out)
                fprintf(out, "%s%s %s", sep, w, replace);
            k++;
        } else if (starts_with(w, "--ntasks=")) {
            given = w + strlen("--ntasks=");
            if (out)
                fprintf(out, "%s--ntasks=%s", sep, replace);
        } else if (w[0] == '-' && w[1] == 'n' && isdigit((unsigned char)w[2])) {
            given = w + 2;
            if (out)
                fprintf(out, "%s-n%s", sep, replace);
        } else {
            if (out)
                fprintf(out, "%s%s", sep, w);
            sep = " ";
            continue;
        }
        sep = " ";
        if (!found)
            count = given;
        found = 1;
    }
    return count;
}

/* A decimal count as bash's arithmetic reads the driver's: digits, else 0. */
static long long number(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return strtoll(s, NULL, 10);
}

/* Distinct non-empty names, for counting hosts. */
struct names {
    char **name;
    size_t n, cap;
};
static int add_name(struct names *set, const char *name, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < set->n; i++)
        if (strlen(set->name[i]) == len && memcmp(set->name[i], name, len) == 0)
            return 0;
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 16;
        char **grown = realloc(set->name, cap * sizeof *grown);
        if (!grown)
            return -1;
        set->name = grown, set->cap = cap;
    }
    if (!(set->name[set->n] = strndup(name, len)))
        return -1;
    set->n++;
    return 0;
}
static long long count_names(struct names *set)
{
    long long n = (long long)set->n;
    for (size_t i = 0; i < set->n; i++)
        free(set->name[i]);
    free(set->name);
    return n;
}
/* -H a,b:4,c: the hosts, each without its ":slots". */
static long long hosts_in_list(const char *list)
{
    struct names set = {0};
    while (*list) {
        size_t item = strcspn(list, ",");
        add_name(&set, list, strcspn(list, ",:"));
        list += item + (list[item] == ',');
    }
    return count_names(&set);
}
/* A hostfile's hosts: the first word of each line, comments cut; 0 when unreadable. */
static long long hosts_in_file(const char *path)
{
    struct names set = {0};
    FILE *f = *path ? fopen(path, "r") : NULL;
    char *line = NULL;
    size_t size = 0;
    if (!f)
        return 0;
    while (getline(&line, &size, f) != -1) {
        line[strcspn(line, "#")] = '\0';
        char *host = line + strspn(line, " \t\n");
        add_name(&set, host, strcspn(host, " \t\n"));
    }
    free(line);
    fclose(f);
    return count_names(&set);
}
/* "...ppr:N:node...": N (what follows the first "ppr:" up to a ':'), where some
 * "ppr:" is followed by a digit and later ":node"; else NULL. */
static char *ppr_count(const char *w)
{
    const char *first = strstr(w, "ppr:");
    for (const char *p = first; p; p = strstr(p + 1, "ppr:"))
        if (isdigit((unsigned char)p[4]) && strstr(p + 5, ":node"))
            return strndup(first + 4, strcspn(first + 4, ":"));
    return NULL;
}

/* How many of the command's ranks share a node: the count per node it gives
 * (--npernode, -npernode, -N under mpirun, --ntasks-per-node, ppr:N:node), else
 * its ranks over its nodes (srun's -N/--nodes, a -H/--host list or a
 * hostfile's hosts, else the Slurm job's nodes), else all of them on this one.
 * An estimate for the preflight: the validator counts where the ranks really
 * ran. Allocated. */
static char *ranks_per_node(const struct words *c)
{
    static const char *const per_node[] = {"--npernode", "-npernode", "--ntasks-per-node", NULL};
    static const char *const host_list[] = {"-H", "--host", NULL};
    static const char *const host_file[] = {"--hostfile", "-hostfile", "--machinefile", "-machinefile", NULL};
    const char *job_nodes = getenv("SLURM_JOB_NUM_NODES");
    const char *nodes = job_nodes && *job_nodes ? job_nodes : "1";
    const char *ranks = launcher_ranks(c, "", NULL);
    int srun = c->n > 0 && strcmp(base_name(c->w[0]), "srun") == 0;
    char counted[32], *answer;
    for (int k = 0; k < c->n; k++) {
        const char *w = c->w[k];
        char *ppr;
        if (is_one_of(w, per_node))
            return strdup(word_after(c, k, "1"));
        if (starts_with(w, "--ntasks-per-node="))
            return strdup(strchr(w, '=') + 1);
        if ((ppr = ppr_count(w)))
            return ppr;
        if (strcmp(w, "-N") == 0 && !srun)
            return strdup(word_after(c, k, "1"));
        if (strcmp(w, "-N") == 0 || strcmp(w, "--nodes") == 0)
            nodes = word_after(c, k, "1");
        else if (starts_with(w, "--nodes="))
            nodes = strchr(w, '=') + 1;
        else if (is_one_of(w, host_list) || is_one_of(w, host_file)) {
            long long n = is_one_of(w, host_list) ? hosts_in_list(word_after(c, k, "")) : hosts_in_file(word_after(c, k, ""));
            snprintf(counted, sizeof counted, "%lld", n);
            nodes = counted;
        }
    }
    /* a Slurm node count may be a range (2-4): its least */
    size_t digits = strcspn(nodes, "-");
    long long n = 1;
    if (digits > 0 && nodes[0] != '0' && strspn(nodes, "0123456789") == digits)
        n = strtoll(nodes, NULL, 10);
    long long r = *ranks ? number(ranks) : 1;
    if ((answer = malloc(32)))
        snprintf(answer, 32, "%lld", (r + n - 1) / n);
    return answer;
}

/* The launcher of a run of set SET: the --mpi one as given, or for a packed
 * layout (set packedT) with cores/T ranks for each rank it gives the key runs. */
static void launcher_for(const struct words *c, const char *command, const char *set, long long ranks,
                         long long max_threads, FILE *out)
{
    char count[32];
    long long threads;
    if (!starts_with(set, "packed")) {
        fprintf(out, "%s", command);
        return;
    }
    threads = number(set + strlen("packed"));
    snprintf(count, sizeof count, "%lld", threads ? ranks * max_threads / threads : 0);
    launcher_ranks(c, count, out);
}

/* A plan line "SET|POLICY|ARGS": SET, and ARGS' first word (the run's threads). */
static int plan_line(const char *line, char *set, size_t size, char *threads, size_t threads_size)
{
    const char *bar = strchr(line, '|'), *args = bar ? strchr(bar + 1, '|') : NULL;
    if (!args || (size_t)(bar - line) >= size) {
        fprintf(stderr, "clomp-write: launcher: not a plan line: %s\n", line);
        return -1;
    }
    snprintf(set, size, "%.*s", (int)(bar - line), line);
    args++;
    snprintf(threads, threads_size, "%.*s", (int)strcspn(args, " "), args);
    return 0;
}

/* The run's launcher in a string (for reading its words again). */
static char *launcher_text(const struct words *c, const char *command, const char *set, long long ranks,
                           long long max_threads)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return NULL;
    launcher_for(c, command, set, ranks, max_threads, f);
    if (fclose(f) != 0)
        return NULL;
    /* as the driver's $(...) took it */
    while (size > 0 && text[size - 1] == '\n')
        text[--size] = '\0';
    return text;
}

static int usage(void)
{
    fprintf(stderr, "usage: clomp-write launcher ranks CMD | per-node CMD | cpu-binding CMD | root-refusal CMD\n"
                    "       clomp-write launcher for SET CMD RANKS MAX_THREADS\n"
                    "       clomp-write launcher layout CMD RANKS MAX_THREADS PLAN_LINE...\n"
                    "       clomp-write launcher crowded CMD RANKS MAX_THREADS CORES PLAN_LINE...\n");
    return 2;
}

int launcher_main(int argc, char **argv)
{
    struct words c;
    char set[256], threads[32], *per;
    int plan_from = 0;
    if (argc < 2)
        return usage();
    const char *what = argv[0], *command = argv[1];
    if (strcmp(what, "for") == 0) {
        if (argc != 5)
            return usage();
        command = argv[2];
    } else if (strcmp(what, "layout") == 0 || strcmp(what, "crowded") == 0) {
        plan_from = strcmp(what, "layout") == 0 ? 4 : 5;
        if (argc < plan_from)
            return usage();
    } else if (argc != 2)
        return usage();
    if (split_words(command, &c) != 0)
        return 2;
    if (strcmp(what, "ranks") == 0)
        printf("%s\n", launcher_ranks(&c, "", NULL));
    else if (strcmp(what, "root-refusal") == 0)
        mpi_root_refusal(c.n > 0 ? c.w[0] : "", command);
    else if (strcmp(what, "per-node") == 0) {
        if (!(per = ranks_per_node(&c)))
            return free(c.text), 2;
        printf("%s\n", per);
        free(per);
    } else if (strcmp(what, "for") == 0) {
        launcher_for(&c, command, argv[1], number(argv[3]), number(argv[4]), stdout);
        putchar('\n');
    } else if (strcmp(what, "cpu-binding") == 0) {
        /* An srun launcher's --cpu-bind, else SLURM_CPU_BIND from the job, else
         * Slurm's default (the task plugin's); nothing for another launcher. */
        const char *binding = NULL, *job = getenv("SLURM_CPU_BIND");
        if (c.n == 0 || strcmp(base_name(c.w[0]), "srun") != 0)
            binding = "";
        for (int k = 1; !binding && k < c.n; k++) {
            if (starts_with(c.w[k], "--cpu-bind=") || starts_with(c.w[k], "--cpu_bind="))
                binding = strchr(c.w[k], '=') + 1;
            else if (strcmp(c.w[k], "--cpu-bind") == 0 || strcmp(c.w[k], "--cpu_bind") == 0)
                binding = word_after(&c, k, "");
        }
        if (!binding)
            binding = job && *job ? job : "the default of the task plugin";
        size_t len = strlen(binding);
        while (len > 0 && binding[len - 1] == '\n')
            len--;
        if (len > 0)
            printf("mpi cpu binding: %.*s\n", (int)len, binding);
    } else if (strcmp(what, "layout") == 0 || strcmp(what, "crowded") == 0) {
        long long ranks = number(argv[2]), max_threads = number(argv[3]);
        long long cores = plan_from == 5 ? number(argv[4]) : 0;
        if (plan_from == 4)
            printf("mpi launcher: %s\n", command);
        for (int i = plan_from; i < argc; i++) {
            char *run = NULL;
            struct words run_words;
            if (plan_line(argv[i], set, sizeof set, threads, sizeof threads) != 0 ||
                !(run = launcher_text(&c, command, set, ranks, max_threads)) || split_words(run, &run_words) != 0)
                return free(run), free(c.text), 2;
            int stop = 0;
            if (plan_from == 4) {
                const char *given = launcher_ranks(&run_words, "", NULL);
                printf("run %d (%s): %s rank(s) x %s threads: %s\n", i - plan_from + 1, set,
                       *given ? given : "launcher-chosen", threads, run);
            } else if ((per = ranks_per_node(&run_words))) {
                /* Hybrid: every rank on a node runs its threads there. A count
                 * that is not a number is 0 here, as bash's arithmetic read it. */
                if (number(per) * number(threads) > cores) {
                    printf("%s MPI ranks x %s threads per node on %lld cores: oversubscribed\n", per, threads, cores);
                    stop = 1;
                }
                free(per);
            }
            free(run_words.text);
            free(run);
            if (stop)
                break;
        }
    } else {
        free(c.text);
        return usage();
    }
    free(c.text);
    return fflush(stdout) == 0 ? 0 : 3;
}
