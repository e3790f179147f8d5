/* clomp-stats replicates ...: run_clomp.sh --replicates auto[,PCT[,CAP[,MINUTES]]]'s decisions
 * (docs/noise.md), so that the driver (suite/replicates.sh) keeps only when to ask and inserting
 * the runs. Each action prints what the driver applies: numbers on its first line, then the
 * text it says and records in <base>.env, exactly as it is said. Exit 2 with one line on bad
 * input.
 *
 *   replicates parse VALUE
 *       VALUE is auto[,PCT[,CAP[,MINUTES]]] (defaults 10, 30, 60): "PCT CAP MINUTES PILOT" (PCT
 *       and MINUTES as given; PILOT, the processes planned first, the smaller of CAP and 6),
 *       then the dry run's sentence. A bad VALUE: its one-line reason on stderr, exit 2.
 *   replicates decide PCT CAP PILOT KEY_RUNS TOTAL_RUNS CSV INPUT < FIGURES
 *       at the end of the key runs (the pilot: INPUT's OK runs numbered 1..KEY_RUNS in CSV, the
 *       suite's <base>.csv; stats/suite_table.c): "N AT1 .. ATN", stage 2's size (the most any
 *       figure's pilot plan needs, timing/replication.c; the fewest when none plans) and where
 *       its processes go in a plan of TOTAL_RUNS runs, then the decision's text. FIGURES: one
 *       "KEY|COLUMN|LABEL|UNIT" a line (the catalogue's replicates set); a figure in us is
 *       wanted within the smaller of PCT% and 0.1 us. PILOT: the pilot's size when no figure
 *       counts it.
 *   replicates stop PCT CAP PLANNED RUNS WHY CSV INPUT < FIGURES
 *       the stop's text: the interval of each figure from the stage-2 processes alone (RUNS,
 *       space-separated, of the PLANNED), whether each is tight, and WHY it stopped (may be "").
 *   replicates recorded ENV MANIFEST STAGE2_AT STAGE2_PLANNED STAGE2_RUNS STOP
 *       on --resume, the decision the suite recorded: from the manifest's replicates member as
 *       clomp-write get prints it, else (STAGE2_AT empty: a manifest from before it) from
 *       ENV's lines: "N REPLAYED AT1 .. ATN" (REPLAYED: the stage-2 processes that
 *       ran), then the stop said (if any). Exit 1: nothing decided yet. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../timing/replication.h"
#include "../timing/statistics.h"
#include "answer_fields.h"
#include "figure_comparison.h"
#include "suite_table.h"

enum { PILOT_FEWEST = 6 };    /* the pilot: the fewest processes with a 95% interval of the median */
#define FLOOR_US 0.1          /* us: the widest interval wanted for a figure in us */
#define FLOOR_TEXT "0.1"
enum { MAX_TEXT = 1 << 16 };

/* Text appended to a buffer of MAX_TEXT, as the driver says it. */
typedef struct Text { char s[MAX_TEXT]; size_t used; } Text;

__attribute__((format(printf, 2, 3))) static void add(Text *t, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    /* clang-tidy 14 flags this only when another file precedes this one in its run (as tests/lint.t
     * batches them), never alone: a false positive, as in clomp.c and cli/options.c. */
    int n = vsnprintf(t->s + t->used, sizeof t->s - t->used, format, args); // NOLINT(clang-analyzer-valist.Uninitialized): va_start is just above
    va_end(args);
    if (n > 0)
        t->used += (size_t)n < sizeof t->s - t->used ? (size_t)n : sizeof t->s - 1 - t->used;
}

/* V as the driver's awk read it from clomp-stats' JSON (%.15g; null read as 0). */
static double as_read(double v)
{
    char text[64];
    if (isnan(v))
        return 0.0;
    snprintf(text, sizeof text, "%.15g", v);
    return strtod(text, NULL);
}

static int usage(const char *why)
{
    fprintf(stderr, "clomp-stats: replicates: %s\n", why);
    return 2;
}

/* A key figure: its measurement KEY, its column in the table, its label and the widest interval
 * wanted in its unit (0.1 us for a figure in us; NaN: none). */
typedef struct Figure { const char *key, *column, *label; double floor; } Figure;

/* ROW, "KEY|COLUMN|LABEL|UNIT", into *F (in place): 0, or -1 when it is not that. */
static int figure_of(char *row, Figure *f)
{
    char *bar1 = strchr(row, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL, *bar3 = bar2 ? strchr(bar2 + 1, '|') : NULL;
    if (bar3 == NULL)
        return -1;
    *bar1 = *bar2 = *bar3 = '\0';
    f->key = row, f->column = bar1 + 1, f->label = bar2 + 1;
    f->floor = strcmp(bar3 + 1, "us") == 0 ? FLOOR_US : NAN;
    return 0;
}

/* One figure's answer from the table, as clomp-stats pilot-n --table gives it: from the values of
 * the OK runs among RUNS (*N of them; *PROCESSES: the runs, whatever their figures), 0 with the plan
 * *P and the values' own interval's larger side *HALF (NaN without one); 1 when no value; -1 when the
 * table or the plan refused (said on stderr): the figure is left out. */
static int answer_figure(const char *csv, const char *input, const char *runs, const Figure *f, double pct, long cap,
                         long *processes, long *n, PilotPlan *p, double *half)
{
    static double values[MAX_VALUES];
    *n = table_values(csv, input, runs, f->key, f->column, values, processes);
    if (*n < 0)
        return -1;
    if (*n == 0)
        return 1;
    if (plan_from_pilot(values, *n, pct, f->floor, cap, CLOMP_CI_LEVEL, p) != 0) {
        fprintf(stderr, "clomp-stats: pilot-n: no plan from these values\n");
        return -1;
    }
    SampleStats s = summarize_samples(values, *n, CLOMP_CI_LEVEL);
    *half = s.has_ci ? fmax(s.median - s.ci_low, s.ci_high - s.median) : NAN;
    return 0;
}

/* A whole number of 1 to MOST digits (leading zeros allowed), as the driver's regex checked. */
static int digits_only(const char *s, size_t most)
{
    size_t n = strspn(s, "0123456789");
    return n > 0 && n <= most && s[n] == '\0';
}

/* S, a whole number of 1 to MOST digits, as a long; -1 when it is not one or does not fit. */
static long whole_of(const char *s, size_t most)
{
    char *end;
    if (!digits_only(s, most))
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    return errno == ERANGE || *end != '\0' ? -1 : v;
}

/* parse VALUE (auto or auto,...): as the driver's IFS=, read split it, defaults, checks and messages. */
static int parse(const char *value)
{
    char rest[4096], *field[4] = {0}, *p;
    int count = 0;
    snprintf(rest, sizeof rest, "%s", value + 4 + (value[4] == ','));
    rest[strcspn(rest, "\n")] = '\0';   /* the driver's read took the first line */
    for (p = rest; count < 3; count++) {   /* PCT, CAP, MINUTES; the rest is too much */
        field[count] = p;
        p = strchr(p, ',');
        if (p == NULL)
            break;
        *p++ = '\0';
    }
    if (p != NULL && *p != '\0' && strcmp(p, ",") != 0)   /* read drops one trailing comma */
        field[3] = p;
    const char *pct = field[0] && *field[0] ? field[0] : "10", *cap = field[1] && *field[1] ? field[1] : "30";
    const char *minutes = field[2] && *field[2] ? field[2] : "60";
    size_t whole = strspn(pct, "0123456789"), frac = pct[whole] == '.' ? strspn(pct + whole + 1, "0123456789") : 0;
    int pct_form = pct[whole] == '.' ? frac > 0 && pct[whole + 1 + frac] == '\0' : whole > 0 && pct[whole] == '\0';
    if (field[3] != NULL) {
        fprintf(stderr, "--replicates: '%s' has more than PCT, CAP and MINUTES after auto\n", value);
        return 2;
    }
    if (!pct_form || !(strtod(pct, NULL) > 0.0)) {
        fprintf(stderr, "--replicates auto: the width '%s' must be a percentage above 0 (e.g. auto,10)\n", pct);
        return 2;
    }
    long cap_n = whole_of(cap, 4);
    if (cap_n < 2 || cap_n > 1000) {
        fprintf(stderr, "--replicates auto: the cap '%s' must be a whole number of processes, at least 2 and at most 1000\n", cap);
        return 2;
    }
    if (minutes[0] < '1' || minutes[0] > '9' || !digits_only(minutes, (size_t)-1)) {
        fprintf(stderr, "--replicates auto: the time cap '%s' must be whole minutes > 0\n", minutes);
        return 2;
    }
    long pilot = cap_n < PILOT_FEWEST ? cap_n : PILOT_FEWEST;
    printf("%s %s %s %ld\n", pct, cap, minutes, pilot);
    printf("--replicates auto: a pilot of %ld target processes, then N fresh ones, N planned from the pilot "
           "(each key figure's 95%% interval within +-%s%% and +-" FLOOR_TEXT " us; at most %s processes, "
           "%s min), spread through the runs after the key runs; the interval reported is from the N alone\n",
           pilot, pct, cap, minutes);
    return 0;
}

enum { MAX_FIGURES = 64 };

/* The arguments every figure's answer needs: PCT CAP, the table and its input, the figures read
 * from standard input, one a line. */
typedef struct Ask { double pct; long cap; const char *csv, *input; int figures; Figure figure[MAX_FIGURES]; } Ask;

static int ask_of(const char *pct, const char *cap, char **table, Ask *a)
{
    static char lines[MAX_FIGURES][1024];
    if (parse_value(pct, &a->pct) != 0 || !(a->pct > 0.0))
        return usage("PCT is not a percentage above 0");
    if ((a->cap = whole_of(cap, 9)) < 1)
        return usage("CAP is not a whole number of processes >= 1");
    a->csv = table[0], a->input = table[1], a->figures = 0;
    while (a->figures < MAX_FIGURES && fgets(lines[a->figures], sizeof lines[0], stdin) != NULL) {
        lines[a->figures][strcspn(lines[a->figures], "\n")] = '\0';
        if (lines[a->figures][0] == '\0')
            continue;
        if (figure_of(lines[a->figures], &a->figure[a->figures]) != 0)
            return usage("a figure is not KEY|COLUMN|LABEL|UNIT");
        a->figures++;
    }
    return 0;
}

static int decide(int argc, char **argv)
{
    Ask a;
    Text lines = {.used = 0};
    if (argc != 7)
        return usage("usage: decide PCT CAP PILOT KEY_RUNS TOTAL_RUNS CSV INPUT < FIGURES");
    if (ask_of(argv[0], argv[1], argv + 5, &a) != 0)
        return 2;
    long pilot = whole_of(argv[2], 9), keys = whole_of(argv[3], 9), total = whole_of(argv[4], 9), planned = 0;
    if (pilot < 0)
        return usage("PILOT is not a number of processes");
    if (keys < 0 || total < 0 || keys > total)
        return usage("KEY_RUNS and TOTAL_RUNS are not run counts, the first at most the second");
    size_t size = (size_t)keys * 11 + 1, used = 0;   /* "1 2 .. KEY_RUNS": the pilot's runs */
    char *runs = malloc(size);
    if (runs == NULL)
        return usage("out of memory");
    runs[0] = '\0';
    for (long r = 1; r <= keys; r++)
        used += (size_t)snprintf(runs + used, size - used, "%s%ld", r > 1 ? " " : "", r);
    for (int k = 0; k < a.figures; k++) {
        const Figure f = a.figure[k];
        PilotPlan p;
        long processes, n;
        double half;
        int got = answer_figure(a.csv, a.input, runs, &f, a.pct, a.cap, &processes, &n, &p, &half);
        if (got < 0)
            continue;
        pilot = processes;
        if (got == 1) {
            add(&lines, "  %-40s no pilot process gave a result: not planned for\n", f.label);
            continue;
        }
        if (p.processes > planned)
            planned = p.processes;
        add(&lines, "  %-40s pilot median %.4g, spread %.3g (1.4826 x MAD) from %ld", f.label, as_read(p.median),
            as_read(p.scale), n);
        if (processes > n)
            add(&lines, " of %ld (%ld not a result)", processes, processes - n);
        add(&lines, ", planned on %.3g (its 80%% upper bound): %ld processes for +-%.3g", as_read(p.planning_scale),
            p.processes, as_read(p.wanted));
        if (!isnan(p.expected_half_width))
            add(&lines, " (expected +-%.3g)", as_read(p.expected_half_width));
        if (p.needed < 0)
            add(&lines, "; it would need a spread of 0");
        else if (p.needed > p.processes)
            add(&lines, "; it would need %ld processes", p.needed);
        add(&lines, "\n");
    }
    if (planned <= 0)
        planned = a.cap < PILOT_FEWEST ? a.cap : PILOT_FEWEST;
    long rest = total - keys;
    Text head = {.used = 0};
    add(&head, "replicates auto: stage 2: %ld fresh target processes at runs", planned);
    printf("%ld", planned);
    for (long k = 0; k < planned; k++) {   /* spread through the runs after the key runs, the first right after them */
        printf(" %ld", keys + k * rest / planned + k + 1);
        add(&head, " %ld", keys + k * rest / planned + k + 1);
    }
    printf("\n%s; ", head.s);
    if (rest == 0)
        printf("back to back: no runs follow the key runs");
    else if (rest < planned)
        printf("spread through the %ld runs after the key runs, some back to back", rest);
    else
        printf("interleaved with the %ld runs after the key runs", rest);
    printf("; planned from the pilot's %ld processes (runs 1-%ld), which the interval reported leaves out\n%s", pilot,
           keys, lines.s);
    free(runs);
    return 0;
}

static int stop(int argc, char **argv)
{
    Ask a;
    Text lines = {.used = 0}, wide = {.used = 0};
    if (argc != 7)
        return usage("usage: stop PCT CAP PLANNED RUNS WHY CSV INPUT < FIGURES");
    if (ask_of(argv[0], argv[1], argv + 5, &a) != 0)
        return 2;
    const char *runs = argv[3], *why = argv[4];
    long planned = whole_of(argv[2], 9), processes = 0, judged = 0;
    if (planned < 0)
        return usage("PLANNED is not a number of processes");
    for (const char *r = runs; *r != '\0'; r += strspn(r, " "))   /* the stage-2 processes inserted so far */
        if (*r != ' ')
            processes++, r += strcspn(r, " ");
    for (int k = 0; k < a.figures; k++) {
        const Figure f = a.figure[k];
        PilotPlan p;
        long n, ran;
        double half = NAN;
        int got = answer_figure(a.csv, a.input, runs, &f, a.pct, a.cap, &ran, &n, &p, &half);
        if (got < 0)
            continue;
        processes = ran, judged = 1;
        /* A figure no process gave (issue 35: not a result in each) is still wide, never tight. */
        if (got == 1 || isnan(half) || !(half <= p.wanted))
            add(&wide, "%s%s", wide.used ? ", " : "", f.label);
        if (got == 1) {
            add(&lines, "  %-40s no stage-2 process gave a result\n", f.label);
            continue;
        }
        /* Processes that gave no result are left out: the interval is then of those that gave one, a
         * number the plan did not fix (issue 44), and said so with why the others gave none. */
        char width[64] = "none";
        if (!isnan(half))
            snprintf(width, sizeof width, "+-%.4g", as_read(half));
        add(&lines, "  %-40s median %.4g, 95%% interval %s (wanted +-%.4g) from %ld processes", f.label,
            as_read(p.median), width, as_read(p.wanted), n);
        if (processes > n)
            add(&lines, " of %ld: %ld dropped as not a result (their runs say why), so its coverage is that of the %ld"
                        " left, not of a number fixed in advance", processes, processes - n, n);
        add(&lines, "\n");
    }
    if (processes < planned)
        add(&lines, "  stage 2 ran %ld of the %ld processes planned: every interval above is of those that ran "
                    "(the plan's coverage claim is for %ld fixed in advance)\n", processes, planned, planned);
    printf("replicates auto: stopped after %ld processes (stage 2: runs %s; the pilot's left out): %s%s", processes,
           *runs ? runs : "none", why, *why ? "; " : "");
    if (!judged)
        printf("no key figure to judge\n%s", lines.s);
    else if (wide.used == 0)
        printf("every key figure's 95%% interval is within +-%s%% and +-" FLOOR_TEXT " us\n%s", argv[0], lines.s);
    else
        printf("still wide: %s\n%s", wide.s, lines.s);
    return 0;
}

/* clomp-stats replicates ACTION ...: its exit status. */
int replicates_answer(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[0], "parse") == 0 && strncmp(argv[1], "auto", 4) == 0 &&
        (argv[1][4] == '\0' || argv[1][4] == ','))
        return parse(argv[1]);
    if (argc >= 1 && strcmp(argv[0], "decide") == 0)
        return decide(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "stop") == 0)
        return stop(argc - 1, argv + 1);
    if (argc >= 1 && strcmp(argv[0], "recorded") == 0)
        return replicates_recorded(argc - 1, argv + 1);
    return usage("usage: replicates parse auto[,PCT[,CAP[,MINUTES]]] | decide ... | stop ... | recorded ...");
}
