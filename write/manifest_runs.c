/* Each run's status in the suite manifest (write/manifest_runs.h), from the suite's own files. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "manifest_runs.h"
#include "text_file.h"

/* FILE's text (NUL-terminated), or NULL when it cannot be read. */
static char *slurp(const char *file)
{
    FILE *in = fopen(file, "r");
    size_t len;
    char *text = in == NULL ? NULL : read_all(in, &len);
    if (in != NULL)
        fclose(in);
    return text;
}

/* The run number S names (plain decimal, as bash's arrays key it: 03 is not 3), 1 to RUNS; else 0. */
size_t run_number(const char *s, size_t runs)
{
    size_t n = strspn(s, "0123456789");
    long k = n > 0 && n < 10 && s[n] == '\0' && *s != '0' ? strtol(s, NULL, 10) : 0;
    return k >= 1 && (size_t)k <= runs ? (size_t)k : 0;
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

/* Whether ENTRY (a run's line as this writer wrote it: its "run", then its "status") says the run
 * ended: done or failed. A driver stopped between a run's done mark and the manifest's next write
 * leaves the run "running" there: that entry is not kept, the run's files say what it is. */
static int entry_ended(const char *entry)
{
    const char *status = strstr(entry, "\"status\": \"");
    return status != NULL && (strncmp(status + 11, "done\"", 5) == 0 || strncmp(status + 11, "failed\"", 7) == 0);
}

/* Each run's status, one a line: done (its .runs.csv row OK) or failed (FAILED; its reason when
 * it is the run just recorded), its entry as OLD (the manifest before) had it when it was done
 * then and is not the run just recorded; running (the run in progress) or planned. */
void put_runs(FILE *out, const struct facts *f, const char **sets, size_t runs, char **old)
{
    struct run_facts r;
    const char *base = fact(f, "base"), *slash = strrchr(base, '/');
    size_t just = run_number(fact(f, "run"), runs), running = run_number(fact(f, "running"), runs);
    read_run_facts(&r, base, runs);
    for (size_t k = 1; r.done != NULL && r.row != NULL && k <= runs; k++) {
        const char **row = r.row[k];
        int failed = row[0] != NULL && strcmp(row[0], "FAILED") == 0;
        if (r.done[k] && old[k] != NULL && k != just && entry_ended(old[k])) {
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
