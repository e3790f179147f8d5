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
#include <sys/stat.h>
#include <unistd.h>

#include "manifest_reader.h"
#include "manifest_writer.h"

#define SCHEMA "clomp-suite-manifest"
#define SCHEMA_MAJOR 1
#define SCHEMA_MINOR 2
#define MAX_INPUT (64L << 20)

struct fact {
    const char *name, *value;
};
struct facts {
    struct fact *at;
    size_t n;
    char *text;
};

/* Standard input read whole and cut into facts; 0, or -1 (out of memory, or more than 64 MiB). */
static int read_facts(struct facts *f)
{
    size_t size = 0, cap = 1 << 16;
    f->at = NULL;
    f->n = 0;
    f->text = malloc(cap + 1);
    if (f->text == NULL)
        return -1;
    for (;;) {
        if (size == cap) {
            char *more = cap > (size_t)MAX_INPUT ? NULL : realloc(f->text, 2 * cap + 1);
            if (more == NULL)
                return -1;
            f->text = more;
            cap *= 2;
        }
        ssize_t got = read(STDIN_FILENO, f->text + size, cap - size);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        size += (size_t)got;
    }
    f->text[size] = '\0';
    size_t records = 1;
    for (size_t k = 0; k < size; k++)
        records += f->text[k] == '\0';
    f->at = calloc(records, sizeof *f->at);
    f->n = 0;
    for (char *p = f->text, *next; f->at != NULL && p < f->text + size; p = next) {
        char *tab = strchr(p, '\t');
        next = p + strlen(p) + 1;   /* before the tab is cut */
        if (*p == '\0')
            continue;
        if (tab != NULL)
            *tab = '\0';
        f->at[f->n++] = (struct fact){p, tab == NULL ? "" : tab + 1};
    }
    return f->at == NULL ? -1 : 0;
}

/* The last value of fact NAME, or "" when there is none. */
static const char *fact(const struct facts *f, const char *name)
{
    for (size_t k = f->n; k-- > 0;)
        if (strcmp(f->at[k].name, name) == 0)
            return f->at[k].value;
    return "";
}
static int has_fact(const struct facts *f, const char *name)
{
    for (size_t k = 0; k < f->n; k++)
        if (strcmp(f->at[k].name, name) == 0)
            return 1;
    return 0;
}

/* The first N bytes of S as a JSON string. */
static void put_str_n(FILE *out, const char *s, size_t n)
{
    putc('"', out);
    for (const char *end = s + n; s < end; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}
static void put_str(FILE *out, const char *s) { put_str_n(out, s, strlen(s)); }

/* S as a JSON number when it is a plain decimal, else null. */
static void put_num(FILE *out, const char *s)
{
    const char *p = s + (*s == '-'), *digits = p;
    size_t whole = strspn(p, "0123456789");
    p += whole;
    if (*p == '.' && strspn(p + 1, "0123456789") > 0)
        p += 1 + strspn(p + 1, "0123456789");
    if (whole == 0 || *p != '\0') {
        fputs("null", out);
        return;
    }
    for (; whole > 1 && *digits == '0'; whole--)
        digits++;
    fprintf(out, "%s%s", *s == '-' ? "-" : "", digits);
}

/* The values of every fact NAME in F->at[FROM, TO), as a JSON array of strings. */
static void put_strs(FILE *out, const struct facts *f, size_t from, size_t to, const char *name)
{
    const char *sep = "";
    putc('[', out);
    for (size_t k = from; k < to; k++)
        if (strcmp(f->at[k].name, name) == 0) {
            fputs(sep, out);
            put_str(out, f->at[k].value);
            sep = ", ";
        }
    putc(']', out);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

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

/* FILE's text (NUL-terminated), or NULL when it cannot be read. */
static char *slurp(const char *file)
{
    FILE *in = fopen(file, "r");
    char *text = NULL;
    size_t size = 0;
    FILE *mem = in == NULL ? NULL : open_memstream(&text, &size);
    for (int c; mem != NULL && (c = getc(in)) != EOF;)
        putc(c, mem);
    if (mem != NULL)
        fclose(mem);
    if (in != NULL)
        fclose(in);
    return text;
}

/* The run number S names (plain decimal, as bash's arrays key it: 03 is not 3), 1 to RUNS; else 0. */
static size_t run_number(const char *s, size_t runs)
{
    size_t n = strspn(s, "0123456789");
    long k = n > 0 && n < 10 && s[n] == '\0' && *s != '0' ? strtol(s, NULL, 10) : 0;
    return k >= 1 && (size_t)k <= runs ? (size_t)k : 0;
}

/* LINE's cells (RFC 4180, as results/csv_columns.awk splits them), cut in place; how many (<= MAX). */
static int csv_cells(char *line, char **cells, int max)
{
    int n = 0, quoted = 0;
    char *to = line;
    cells[n++] = to;
    for (const char *p = line; *p != '\0'; p++) {
        if (quoted && *p == '"' && p[1] == '"') {
            *to++ = *p++;
        } else if (*p == '"') {
            quoted = !quoted;
        } else if (*p == ',' && !quoted) {
            *to++ = '\0';
            if (n == max)
                return n;
            cells[n++] = to;
        } else {
            *to++ = *p;
        }
    }
    *to = '\0';
    return n;
}

/* What the suite's files say of its runs 1 to RUNS: the done ones (<base>.done, a run number a
 * line) and the driver's record of each (<base>.runs.csv's status, exit_code and seconds, by
 * name; a run's last row). The texts stay with the caller (freed after). */
struct run_facts {
    char *done_text, *csv_text;
    char *done;                          /* done[k]: run k is done */
    const char *(*row)[3];               /* row[k]: its status, exit code, seconds, or NULLs */
};
static void read_run_facts(struct run_facts *r, const char *base, size_t runs)
{
    char path[4096];
    r->done = calloc(runs + 1, 1);
    r->row = calloc(runs + 1, sizeof *r->row);
    snprintf(path, sizeof path, "%s.done", base);
    r->done_text = slurp(path);
    for (char *line = r->done_text ? strtok(r->done_text, "\n") : NULL; line != NULL && r->done; line = strtok(NULL, "\n")) {
        line += strspn(line, " \t");   /* read -r trims the line's white space */
        for (size_t n = strlen(line); n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t');)
            line[--n] = '\0';
        r->done[run_number(line, runs)] = 1;
    }
    snprintf(path, sizeof path, "%s.runs.csv", base);
    r->csv_text = slurp(path);
    static const char *const names[] = {"run", "status", "exit_code", "seconds"};
    int at[4] = {-1, -1, -1, -1};
    char *line = r->csv_text == NULL ? NULL : strtok(r->csv_text, "\n");
    char *cells[64];
    for (int n = line == NULL ? 0 : csv_cells(line, cells, 64); n-- > 0;)   /* the header */
        for (int j = 0; j < 4; j++)
            if (strcmp(cells[n], names[j]) == 0 && at[j] < 0)
                at[j] = n;
    while (line != NULL && r->row != NULL && (line = strtok(NULL, "\n")) != NULL) {
        int n = csv_cells(line, cells, 64);
        const char *col[4];
        for (int j = 0; j < 4; j++)
            col[j] = at[j] >= 0 && at[j] < n ? cells[at[j]] : "";
        size_t k = run_number(col[0], runs);
        for (int j = 1; j < 4; j++)
            r->row[k][j - 1] = col[j];
    }
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

/* Each run's status, one a line: done (its .runs.csv row OK) or failed (FAILED; its reason when
 * it is the run just recorded), its entry as OLD (the manifest before) had it when it was done
 * then and is not the run just recorded; running (the run in progress) or planned. */
static void put_runs(FILE *out, const struct facts *f, const char **sets, size_t runs, char **old)
{
    struct run_facts r;
    const char *base = fact(f, "base"), *slash = strrchr(base, '/');
    size_t just = run_number(fact(f, "run"), runs), running = run_number(fact(f, "running"), runs);
    read_run_facts(&r, base, runs);
    for (size_t k = 1; r.done != NULL && r.row != NULL && k <= runs; k++) {
        const char **row = r.row[k];
        int failed = row[0] != NULL && strcmp(row[0], "FAILED") == 0;
        if (r.done[k] && old[k] != NULL && k != just) {
            fprintf(out, "    %s", old[k]);
        } else if (r.done[k]) {
            fprintf(out, "    {\"run\": %zu, \"status\": \"%s\", \"exit_code\": ", k, failed ? "failed" : "done");
            put_num(out, row[1] != NULL ? row[1] : "");
            fputs(", \"seconds\": ", out);
            put_num(out, row[2] != NULL ? row[2] : "");
            fputs(", \"reason\": ", out);
            if (failed && k == just && *fact(f, "reason") != '\0')
                put_str(out, fact(f, "reason"));
            else
                fputs("null", out);
            fputs(", \"record\": ", out);
            size_t size = strlen(base) + strlen(sets[k - 1]) + 32;   /* its clomp --json record, by name */
            char *record = malloc(size);
            struct stat st;
            if (record != NULL && snprintf(record, size, "%s_%s.run%zu.json", base, sets[k - 1], k) > 0 && stat(record, &st) == 0)
                put_str(out, record + (slash == NULL ? 0 : slash + 1 - base));
            else
                fputs("null", out);
            free(record);
            putc('}', out);
        } else {
            fprintf(out, "    {\"run\": %zu, \"status\": \"%s\", \"exit_code\": null, \"seconds\": null, \"reason\": null, \"record\": null}",
                    k, k == running ? "running" : "planned");
        }
        fputs(k == runs ? "\n" : ",\n", out);
    }
    free(r.done);
    free(r.row);
    free(r.done_text);
    free(r.csv_text);
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
