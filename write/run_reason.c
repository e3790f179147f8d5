/* Why a suite run FAILED, and why a write of the suite's files failed, in one
 * line (suite/run_guard.sh; the line goes to .env, the manifest, terminals and
 * HTML, so control characters are dropped).
 *
 *   clomp-write reason RC STDERR MARKER   from what the driver saw when the run
 *       ended: its --run-timeout (MARKER not empty: it holds the limit), else the
 *       run's last line on STDERR that is not blank (clomp's one-line error),
 *       its first 300 bytes, else its exit status RC or, above 128, the signal
 *       that killed it (named as bash's `kill -l` names it).
 *   clomp-write write-failed   from the tools' messages on stdin: "No space
 *       left on device" when one says so, else the last line that is not blank
 *       (its first 200 bytes), else "write error".
 *
 * Exit 0; 2 usage. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run_guard.h"
#include "text_file.h"

static int blank(int c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }

/* The last line of TEXT[0, LEN) with a character that is not blank, its control
 * characters (C0, DEL) dropped, cut to MAX bytes, into OUT (MAX + 1 bytes). */
static void last_line(const char *text, size_t len, size_t max, char *out)
{
    size_t start = 0, keep_start = 0, keep_end = 0;
    int found = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && text[i] != '\n')
            continue;
        for (size_t k = start; k < i; k++)
            if (!blank((unsigned char)text[k])) {
                keep_start = start, keep_end = i, found = 1;
                break;
            }
        start = i + 1;
    }
    size_t n = 0;
    for (size_t k = keep_start; found && k < keep_end && n < max; k++) {
        unsigned char c = (unsigned char)text[k];
        if (c >= 0x20 && c != 0x7f)
            out[n++] = (char)c;
    }
    out[n] = '\0';
}

/* A signal's name without SIG, as bash's `kill -l N` gives it; NULL for a number that names none. */
static const char *signal_name(int n, char *buf, size_t size)
{
    static const struct {
        int number;
        const char *name;
    } names[] = {
        {SIGHUP, "HUP"},   {SIGINT, "INT"},       {SIGQUIT, "QUIT"},     {SIGILL, "ILL"},   {SIGTRAP, "TRAP"},
        {SIGABRT, "ABRT"}, {SIGBUS, "BUS"},       {SIGFPE, "FPE"},       {SIGKILL, "KILL"}, {SIGUSR1, "USR1"},
        {SIGSEGV, "SEGV"}, {SIGUSR2, "USR2"},     {SIGPIPE, "PIPE"},     {SIGALRM, "ALRM"}, {SIGTERM, "TERM"},
#ifdef SIGSTKFLT
        {SIGSTKFLT, "STKFLT"},
#endif
        {SIGCHLD, "CHLD"}, {SIGCONT, "CONT"},     {SIGSTOP, "STOP"},     {SIGTSTP, "TSTP"}, {SIGTTIN, "TTIN"},
        {SIGTTOU, "TTOU"}, {SIGURG, "URG"},       {SIGXCPU, "XCPU"},     {SIGXFSZ, "XFSZ"}, {SIGVTALRM, "VTALRM"},
        {SIGPROF, "PROF"}, {SIGWINCH, "WINCH"},
#ifdef SIGIO
        {SIGIO, "IO"},
#endif
#ifdef SIGPWR
        {SIGPWR, "PWR"},
#endif
        {SIGSYS, "SYS"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].number == n)
            return names[i].name;
    /* Real-time signals: the lower half counted up from RTMIN, the upper down from RTMAX. */
    int low = SIGRTMIN, high = SIGRTMAX;
    if (n < low || n > high)
        return NULL;
    if (n == low)
        return "RTMIN";
    if (n == high)
        return "RTMAX";
    if (n - low <= (high - low) / 2)
        snprintf(buf, size, "RTMIN+%d", n - low);
    else
        snprintf(buf, size, "RTMAX-%d", high - n);
    return buf;
}

int run_reason_failure(int argc, char **argv)
{
    char *end;
    long rc = argc == 3 ? strtol(argv[0], &end, 10) : 0;
    if (argc != 3 || *argv[0] == '\0' || *end != '\0') {
        fprintf(stderr, "usage: clomp-write reason RC STDERR MARKER\n");
        return 2;
    }
    size_t len;
    struct stat st;
    if (stat(argv[2], &st) == 0 && st.st_size > 0) {
        FILE *f = fopen(argv[2], "r");
        char *limit = read_all(f, &len);
        if (f != NULL)
            fclose(f);
        while (limit != NULL && len > 0 && limit[len - 1] == '\n')
            limit[--len] = '\0';
        printf("no result after %s s: ended by --run-timeout %s\n", limit ? limit : "", limit ? limit : "");
        free(limit);
        return 0;
    }
    FILE *f = fopen(argv[1], "r");
    char *text = read_all(f, &len), line[301], buf[32];
    if (f != NULL)
        fclose(f);
    last_line(text ? text : "", text ? len : 0, 300, line);
    free(text);
    if (line[0] != '\0') {
        printf("%s\n", line);
    } else if (rc > 128) {
        const char *name = signal_name((int)(rc - 128), buf, sizeof buf);
        if (name != NULL)
            printf("killed by signal %s\n", name);
        else
            printf("killed by signal %ld\n", rc - 128);
    } else {
        printf("exit status %ld, nothing on stderr\n", rc);
    }
    return 0;
}

int run_reason_write(int argc, char **argv)
{
    (void)argv;
    if (argc != 0) {
        fprintf(stderr, "usage: clomp-write write-failed   (the tools' messages on stdin)\n");
        return 2;
    }
    size_t len;
    char *text = read_all(stdin, &len), line[201];
    if (text != NULL && strstr(text, "No space left on device") != NULL)
        snprintf(line, sizeof line, "No space left on device");
    else
        last_line(text ? text : "", text ? len : 0, 200, line);
    free(text);
    printf("%s\n", line[0] != '\0' ? line : "write error");
    return 0;
}
