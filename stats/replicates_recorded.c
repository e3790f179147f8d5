/* clomp-stats replicates recorded ENV MANIFEST STAGE2_AT STAGE2_PLANNED STAGE2_RUNS STOP: what a
 * suite run with --replicates auto recorded before a --resume (stats/replicates_answer.c says the
 * answer), so that the resumed driver replays the same plan. From the manifest's replicates member
 * as clomp-write get printed it (suite/replicates.sh reads it by its JSON: this file parses no
 * JSON, clomp-stats links only timing/), else (STAGE2_AT empty: clomp-write found none), for a
 * manifest from before stage2_at (1.0, or converted from an old suite), from the lines
 * <base>.env said, read as they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINE = 1 << 16, MAX_AT = 1000 };

/* The whitespace-separated words of TEXT's first line, with JSON set '[', ']' and ',' taken out (an
 * array of numbers as clomp-write get prints it), into WORDS (at most MAX_AT, in place): their
 * count, more than MAX_AT when there are more. */
static int words_of(char *text, char **words, int json)
{
    int n = 0;
    char *out = text;
    text[strcspn(text, "\n")] = '\0';
    for (const char *in = text; *in != '\0'; in++)
        if (!json || (*in != '[' && *in != ']' && *in != ','))
            *out++ = *in;
    *out = '\0';
    for (char *w = strtok(text, " \t"); w != NULL; w = strtok(NULL, " \t"))
        if (n++ < MAX_AT)
            words[n - 1] = w;
    return n;
}

/* A whole number of 1 to MOST digits. */
static int digits(const char *s, size_t most)
{
    size_t n = strspn(s, "0123456789");
    return n > 0 && n <= most && s[n] == '\0';
}

static int starts(const char *line, const char *prefix) { return strncmp(line, prefix, strlen(prefix)) == 0; }

/* From ENV's lines: the decision's line into DECIDED (its N and AT), the stage-2 processes said
 * (*REPLAYED) and the stop's block into STOP (from "replicates auto: stopped" to the next line that
 * starts with a non-space, inclusive, the suite's own "---- " lines left out). 1 when no decision. */
static int from_env(const char *env, char *decided, size_t size, long *replicated, char *stop, size_t stop_size)
{
    static char line[MAX_LINE];
    FILE *f = fopen(env, "r");
    int in_stop = 0;
    size_t used = 0;
    if (f == NULL)
        return 1;
    decided[0] = stop[0] = '\0';
    *replicated = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (decided[0] == '\0' && starts(line, "replicates auto: stage 2: "))
            snprintf(decided, size, "%s", line);
        *replicated += starts(line, "replicates auto: stage-2 process ");
        int first = !in_stop && starts(line, "replicates auto: stopped");
        if (first || in_stop) {
            size_t length = strlen(line);
            if (!starts(line, "---- ") && used + length < stop_size) {
                memcpy(stop + used, line, length + 1);
                used += length;
            }
            in_stop = first || line[0] == ' ' || line[0] == '\n' || line[0] == '\0';
        }
    }
    fclose(f);
    decided[strcspn(decided, "\n")] = '\0';
    while (used > 0 && stop[used - 1] == '\n')   /* as the shell's $( ) left it */
        stop[--used] = '\0';
    return decided[0] == '\0';
}

int replicates_recorded(int argc, char **argv)
{
    static char decided[MAX_LINE], stop_text[MAX_LINE], at_text[MAX_LINE], name[4096];
    char *at[MAX_AT];
    const char *planned, *stop = stop_text;
    long replayed;
    if (argc != 6) {
        fprintf(stderr, "clomp-stats: replicates: usage: recorded ENV MANIFEST STAGE2_AT STAGE2_PLANNED STAGE2_RUNS STOP\n");
        return 2;
    }
    int member = argv[2][0] != '\0';
    if (member) {
        if (strcmp(argv[2], "[]") == 0)
            return 1;
        static char runs_text[MAX_LINE];
        char *ran[MAX_AT];
        snprintf(at_text, sizeof at_text, "%s", argv[2]);
        snprintf(runs_text, sizeof runs_text, "%s", argv[4]);
        planned = argv[3], replayed = words_of(runs_text, ran, 1), stop = argv[5];
        snprintf(name, sizeof name, "%s's replicates member", argv[1]);
    } else {
        if (from_env(argv[0], decided, sizeof decided, &replayed, stop_text, sizeof stop_text) != 0)
            return 1;
        char *n = decided + strlen("replicates auto: stage 2: "), *runs = strstr(decided, " at runs ");
        snprintf(at_text, sizeof at_text, "%s", runs != NULL ? runs + strlen(" at runs ") : decided);
        at_text[strcspn(at_text, ";")] = '\0';
        n[strcspn(n, " ")] = '\0';   /* after the AT taken above: it may cut the line short */
        planned = n;
        snprintf(name, sizeof name, "%s's 'replicates auto: stage 2:' line", argv[0]);
    }
    char counted[32];
    int count = words_of(at_text, at, member);
    snprintf(counted, sizeof counted, "%d", count);
    int valid = count >= 1 && count <= MAX_AT && digits(planned, 4) && strcmp(planned, counted) == 0;
    for (int k = 0; valid && k < count; k++)
        valid = digits(at[k], 9);
    if (!valid) {
        fprintf(stderr, "--resume: %s is not N processes at N run numbers\n", name);
        return 2;
    }
    printf("%d %ld", count, replayed);
    for (int k = 0; k < count; k++)
        printf(" %s", at[k]);
    printf("\n%s", stop);
    return 0;
}
