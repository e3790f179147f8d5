/* The suite manifest, <base>.suite.json (docs/suite-manifest.md), as the driver writes it: from
 * the facts its shell knows (suite/manifest.sh write_manifest), the JSON made here, so that the
 * shell neither escapes a string nor forks a reader a write (the manifest is rewritten twice a
 * run, and at every status line).
 *
 *   clomp-write manifest FILE: FILE written whole (replace_file: a new private copy renamed over
 *       it, never through a link), one member a line, one plan entry and one run a line: the head
 *       (the members fixed when the suite started: the file's own, read by its JSON, once there is
 *       one; else made of the head's facts), the plan, each run's status (merged from <base>.done,
 *       <base>.runs.csv and the file's own entries), --replicates' decision, the history and the
 *       status.
 *   clomp-write manifest --plan: the plan's entries alone, one a line, each with its "launch"
 *       words (the dry run's and the ETA's estimate: suite/calibrate.sh ask_estimate).
 *
 * The facts: standard input, records "NAME<tab>VALUE", each ended by a NUL byte (a value may hold
 * any other byte: a status line, --replicates' stop text and a section's text hold newlines).
 * The shell passes words as they are; here each string is escaped (RFC 8259: quote, backslash and
 * every control character, DEL too; other bytes, invalid UTF-8 included, as they are) and each
 * number judged (a plain decimal, -?D+(.D+)?, else null; leading zeros dropped, as JSON has none).
 *   each write:  base, status, running (the run in progress), run and reason (the run just
 *                recorded, and why it failed), history (a status line to add), replicates, auto_pct,
 *                auto_n, auto_inserted, auto_replayed, stop, auto_at (one a stage-2 run number)
 *   the plan:    oversubscribed (the team-size cliff's set), plan (an entry's set; what follows is
 *                the entry's): numa, role (the shell's: constructs, offload or other; a set name
 *                judged here comes first), arg and option (one a word), launch (one a word, --plan)
 *   the head, only when the suite has no manifest yet (its presence: plan_signature): plan_signature,
 *                date, host, uname, executable, max_threads, time_scale, env_preset, thread_binding,
 *                launcher, mpi_launcher, auto_cap, auto_minutes, grain_search, model, slurm_lines,
 *                offload_line, preflight (one a warning), heading and lines (a machine section: its
 *                heading, then its text); the OpenMP and launcher variables are this process's own
 *                environment (the driver's exported ones). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "manifest_facts.h"
#include "manifest_reader.h"
#include "manifest_runs.h"
#include "manifest_writer.h"
#include "text_file.h"

#define SCHEMA "clomp-suite-manifest"
#define SCHEMA_MAJOR 1
#define SCHEMA_MINOR 2

/* The OpenMP runtimes' and launchers' variables of the environment, by name (byte order), as
 * "NAME": "VALUE" members. */
static void put_environment(FILE *out)
{
    extern char **environ;
    static const char *const prefixes[] = {"OMP_", "GOMP_", "KMP_", "XLSMPOPTS", "BG_", "OMPI_", "SLURM_"};
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **names = calloc(n + 1, sizeof *names);
    size_t kept = 0;
    for (size_t k = 0; names != NULL && k < n; k++)
        for (size_t j = 0; j < sizeof prefixes / sizeof *prefixes; j++)
            if (strncmp(environ[k], prefixes[j], strlen(prefixes[j])) == 0 && strchr(environ[k], '=') != NULL) {
                names[kept++] = environ[k];
                break;
            }
    if (names != NULL)
        qsort(names, kept, sizeof *names, by_name);
    for (size_t k = 0; k < kept; k++) {
        size_t name = strcspn(names[k], "=");
        fputs(k == 0 ? "" : ", ", out);
        put_str_n(out, names[k], name);
        fputs(": ", out);
        put_str(out, names[k] + name + 1);
    }
    free(names);
}

/* The run's role in the suite's report, by its set's name (OVERSUBSCRIBED: the team-size cliff's
 * set); else what the shell said (constructs, offload, other: its sets' own tests). */
static const char *role_of(const char *set, const char *oversubscribed, const char *said)
{
    size_t n = strlen(set);
    if (strcmp(set, "key") == 0)
        return "key";
    if (strncmp(set, "packed", 6) == 0)
        return "packed";
    if (strcmp(set, oversubscribed) == 0)
        return "oversubscribed";
    if (n >= 5 && strcmp(set + n - 5, "zones") == 0)
        return "sweep";
    return said;
}

/* The head as the suite starts: schema, suite, plan signature, settings, machine. */
static void put_fresh_head(FILE *out, const struct facts *f)
{
    const char *base = fact(f, "base"), *slash = strrchr(base, '/');
    fprintf(out, "{\n  \"schema\": \"%s\",\n  \"schema_major\": %d,\n  \"schema_minor\": %d,\n  \"suite\": ", SCHEMA,
            SCHEMA_MAJOR, SCHEMA_MINOR);
    put_str(out, slash == NULL ? base : slash + 1);
    fputs(",\n  \"plan_signature\": ", out);
    put_str(out, fact(f, "plan_signature"));
    fputs(",\n  \"settings\": {", out);
    /* Each: its member, its fact, and how it is written: s a string, n a number, - a string, "none" when empty. */
    static const char *const settings[][3] = {
        {"date", "date", "s"}, {"host", "host", "s"}, {"uname", "uname", "s"}, {"executable", "executable", "s"},
        {"max_threads", "max_threads", "n"}, {"time_scale", "time_scale", "n"}, {"env_preset", "env_preset", "-"},
        {"thread_binding", "thread_binding", "s"}, {"launcher", "launcher", "-"}, {"mpi_launcher", "mpi_launcher", "-"}};
    for (size_t k = 0; k < sizeof settings / sizeof *settings; k++) {
        const char *value = fact(f, settings[k][1]);
        fprintf(out, "\"%s\": ", settings[k][0]);
        if (*settings[k][2] == 'n')
            put_num(out, value);
        else
            put_str(out, *settings[k][2] == '-' && *value == '\0' ? "none" : value);
        fputs(", ", out);
    }
    fputs("\"replicates_asked\": ", out);
    if (*fact(f, "auto_pct") != '\0')   /* --replicates auto,PCT,CAP,MINUTES */
        fprintf(out, "\"auto,%s,%s,%s\"", fact(f, "auto_pct"), fact(f, "auto_cap"), fact(f, "auto_minutes"));
    else
        put_str(out, fact(f, "replicates"));
    fputs(", \"grain_search\": ", out);
    put_str(out, fact(f, "grain_search"));
    fputs(", \"model\": ", out);
    put_str(out, fact(f, "model"));
    /* The Slurm job: the first line of .env's Slurm lines, when it is "slurm job: JOB". */
    const char *slurm = fact(f, "slurm_lines"), *job = strncmp(slurm, "slurm job: ", 11) == 0 ? slurm + 11 : "";
    fputs(", \"slurm_job\": ", out);
    put_str_n(out, job, strcspn(job, "\n"));
    const char *device = fact(f, "offload_line");
    fputs(", \"offload_device\": ", out);
    put_str(out, device + (strncmp(device, "offload device: ", 16) == 0 ? 16 : 0));
    fputs(", \"openmp_environment\": {", out);
    put_environment(out);
    fputs("}, \"preflight_warnings\": ", out);
    put_strs(out, f, 0, f->n, "preflight");
    fputs("},\n  \"machine\": [", out);
    const char *sep = "";
    for (size_t k = 0; k + 1 < f->n; k++)   /* a heading, and its text's lines */
        if (strcmp(f->at[k].name, "heading") == 0 && strcmp(f->at[k + 1].name, "lines") == 0) {
            fprintf(out, "%s{\"heading\": ", sep);
            put_str(out, f->at[k].value);
            fputs(", \"lines\": [", out);
            const char *text = f->at[k + 1].value;   /* "a\n" is two lines, "a" and "" (bash's mapfile) */
            for (const char *line = text; *text != '\0'; line += strcspn(line, "\n") + 1) {
                fputs(line == text ? "" : ", ", out);
                put_str_n(out, line, strcspn(line, "\n"));
                if (line[strcspn(line, "\n")] == '\0')
                    break;
            }
            fputs("]}", out);
            sep = ", ";
        }
    fputs("],\n", out);
}

/* The plan's entries from fact "plan" on, one a line (with their launch words: --plan), ",\n"
 * between; SETS[k] set to run k + 1's set name. The number of entries. */
static size_t put_plan(FILE *out, const struct facts *f, const char **sets, int launch)
{
    size_t runs = 0;
    for (size_t k = 0; k < f->n; k++) {
        if (strcmp(f->at[k].name, "plan") != 0)
            continue;
        size_t end = k + 1, args = 0;
        const char *numa = "first-touch", *role = "", *threads = "", *time_scale = "";   /* args 1 and 7 */
        for (; end < f->n && strcmp(f->at[end].name, "plan") != 0; end++) {
            const struct fact *e = &f->at[end];
            if (strcmp(e->name, "arg") == 0 && ++args == 1)
                threads = e->value;
            else if (strcmp(e->name, "arg") == 0 && args == 7)
                time_scale = e->value;
            else if (strcmp(e->name, "numa") == 0 && *e->value != '\0')
                numa = e->value;
            else if (strcmp(e->name, "role") == 0)
                role = e->value;
        }
        if (sets != NULL)
            sets[runs] = f->at[k].value;
        fprintf(out, "%s    {\"run\": %zu, \"set\": ", runs == 0 ? "" : ",\n", runs + 1);
        runs++;
        put_str(out, f->at[k].value);
        fputs(", \"numa\": ", out);
        put_str(out, numa);
        fputs(", \"args\": ", out);
        put_strs(out, f, k + 1, end, "arg");
        fputs(", \"options\": ", out);
        put_strs(out, f, k + 1, end, "option");
        fputs(", \"threads\": ", out);
        put_num(out, threads);
        fputs(", \"time_scale\": ", out);
        put_num(out, time_scale);
        fputs(", \"role\": ", out);
        put_str(out, role_of(f->at[k].value, fact(f, "oversubscribed"), role));
        if (launch) {
            fputs(", \"launch\": ", out);
            put_strs(out, f, k + 1, end, "launch");
        }
        putc('}', out);
    }
    return runs;
}

/* What the reader READ (manifest_entries or manifest_get of FILE, PATH, KEY) writes, as text
 * ("" when it answers nothing). */
static char *read_back(int (*read)(FILE *, const char *, const char *, const char *), const char *file, const char *path,
                       const char *key)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    if (mem != NULL) {
        read(mem, file, path, key);
        fclose(mem);
    }
    return text;
}
static int entries_of(FILE *out, const char *file, const char *path, const char *key)
{
    return manifest_entries(out, file, path, key);
}
static int get_of(FILE *out, const char *file, const char *path, const char *key)
{
    (void)key;
    return manifest_get(out, file, path);
}

/* --replicates' decision: fixed or auto, the processes planned, and stage 2's runs (those
 * inserted, or on --resume those the suite had inserted before, until replayed), every run
 * number it was planned at, and the stop it said. */
static void put_replicates(FILE *out, const struct facts *f)
{
    long inserted = strtol(fact(f, "auto_inserted"), NULL, 10), replayed = strtol(fact(f, "auto_replayed"), NULL, 10);
    fprintf(out, "  \"replicates\": {\"asked\": \"%s\", \"planned\": ", *fact(f, "auto_pct") != '\0' ? "auto" : "fixed");
    put_num(out, fact(f, "replicates"));
    fputs(", \"stage2_planned\": ", out);
    put_num(out, fact(f, "auto_n"));
    for (int all = 0; all <= 1; all++) {
        fputs(all ? "], \"stage2_at\": [" : ", \"stage2_runs\": [", out);
        long shown = 0;
        for (size_t k = 0; k < f->n; k++)
            if (strcmp(f->at[k].name, "auto_at") == 0 && (all || shown < (inserted > replayed ? inserted : replayed))) {
                fputs(shown++ == 0 ? "" : ", ", out);
                put_num(out, f->at[k].value);
            }
    }
    fputs("], \"stop\": ", out);
    if (*fact(f, "stop") != '\0')
        put_str(out, fact(f, "stop"));
    else
        fputs("null", out);
    fputs("},\n", out);
}

/* The history: the status lines FILE holds (when it is read: FROM_FILE) and the one to add. */
static void put_history(FILE *out, const struct facts *f, const char *file, int from_file)
{
    char *held = from_file ? read_back(get_of, file, "history", NULL) : NULL;
    const char *text = held == NULL ? "" : held;   /* the array's items, as compact JSON */
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        n--;
    if (n > 0 && text[0] == '[') {
        text++;
        n--;
    }
    if (n > 0 && text[n - 1] == ']')
        n--;
    fprintf(out, "  \"history\": [%.*s", (int)n, text);
    if (*fact(f, "history") != '\0') {
        fputs(n > 0 ? ", " : "", out);
        put_str(out, fact(f, "history"));
    }
    fputs("],\n  \"status\": ", out);
    put_str(out, fact(f, "status"));
    fputs("\n}\n", out);
    free(held);
}

/* The manifest FILE as it is now, to OUT; 0, or 1 (its head could not be read: said). */
static int put_manifest(FILE *out, const struct facts *f, const char *file)
{
    int fresh = has_fact(f, "plan_signature");
    if (fresh)
        put_fresh_head(out, f);
    else if (manifest_head(out, file) != READ_FOUND)
        return 1;
    const char **sets = calloc(f->n + 1, sizeof *sets);
    char **old = calloc(f->n + 2, sizeof *old);
    char *entries = fresh ? NULL : read_back(entries_of, file, "runs", "run");
    if (sets == NULL || old == NULL) {
        fprintf(stderr, "clomp-write: %s: out of memory\n", file);
        free(entries);
        free(old);
        free(sets);
        return 1;
    }
    fputs("  \"plan\": [\n", out);
    size_t runs = put_plan(out, f, sets, 0);
    fputs("\n  ],\n  \"runs\": [\n", out);
    for (char *line = entries == NULL ? NULL : strtok(entries, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');   /* RUN<tab>ENTRY */
        if (tab != NULL && (*tab = '\0', run_number(line, runs) > 0))
            old[run_number(line, runs)] = tab + 1;
    }
    put_runs(out, f, sets, runs, old);
    fputs("  ],\n", out);
    put_replicates(out, f);
    put_history(out, f, file, !fresh);
    free(entries);
    free(old);
    free(sets);
    return 0;
}

int manifest_write(int argc, char **argv)
{
    if (argc != 1) {
        fprintf(stderr, "usage: clomp-write manifest FILE | manifest --plan   (the facts on standard input: write/manifest_writer.c)\n");
        return 2;
    }
    struct facts f;
    const char *file = argv[0];
    if (read_facts(&f) != 0) {
        fprintf(stderr, "clomp-write: %s: the facts on standard input could not be read\n", file);
        return 1;
    }
    int status;
    FILE *out = NULL;
    if (strcmp(file, "--plan") == 0) {
        if (put_plan(stdout, &f, NULL, 1) > 0)
            putchar('\n');
        status = fflush(stdout) == 0 ? 0 : 1;
    } else {
        /* Made whole first (in the system's temporary file), then put in place. */
        out = tmpfile();
        status = out == NULL ? -1 : put_manifest(out, &f, file);
    }
    if (out == NULL && status >= 0) {
        free(f.at);
        free(f.text);
        return status;
    }
    if (status < 0 || fflush(out) != 0 || ferror(out) || fseek(out, 0, SEEK_SET) != 0) {
        fprintf(stderr, "clomp-write: %s: %s\n", file, strerror(errno));
        status = 1;
    }
    if (status == 0)
        status = replace_file(file, fileno(out));
    if (out != NULL)
        fclose(out);
    free(f.at);
    free(f.text);
    return status;
}
