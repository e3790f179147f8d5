/* A suite run's process group (suite/run_guard.sh, docs/suite.md "Locks,
 * timeouts and failures"): the run is started in its own group (setsid), so
 * that a launcher's wrappers end with it.
 *
 *   clomp-write end-group PGID   TERM to the group (to the process PGID when
 *       there is no such group), then, if any of it is still there after 10 s
 *       (polled every 0.25 s), KILL. It ignores INT, TERM and HUP itself: the
 *       supervisor runs it from its trap, where a second Ctrl-C must not cut
 *       the end of the run short.
 *   clomp-write watch PGID LIMIT MARKER DRIVER WORKER   the watchdog, started in
 *       the background by the worker for each run: every second, while the group
 *       lives, it ends the group (as end-group) and exits 0 when the driver's
 *       supervisor (DRIVER) or worker (WORKER) is gone, even by SIGKILL, or when
 *       LIMIT seconds have passed (0: never), writing "LIMIT\n" to MARKER first
 *       (the run's reason then says so). It takes INT, TERM and HUP as they
 *       come (the worker ends it with TERM once the run is over).
 *
 * Exit 0; 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run_guard.h"

/* A process ID or group ID as the driver writes it: 1 to 9 digits. */
static int parse_pid(const char *s, pid_t *out)
{
    size_t n = strlen(s);
    if (n == 0 || n > 9 || strspn(s, "0123456789") != n)
        return 0;
    *out = (pid_t)strtol(s, NULL, 10);
    return *out > 0;
}

static int alive(pid_t pid) { return kill(pid, 0) == 0; }

int run_group_alive(pid_t pg) { return kill(-pg, 0) == 0 || alive(pg); }

static void send(pid_t pg, int sig)
{
    if (kill(-pg, sig) != 0)
        kill(pg, sig);
}

static void pause_for(long nanoseconds)
{
    struct timespec t = {nanoseconds / 1000000000L, nanoseconds % 1000000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
}

static void end_group(pid_t pg)
{
    send(pg, SIGTERM);
    for (int n = 0; n < 40; n++) {
        if (!run_group_alive(pg))
            return;
        pause_for(250000000L);
    }
    send(pg, SIGKILL);
}

static int usage(const char *words)
{
    fprintf(stderr, "usage: clomp-write %s\n", words);
    return 2;
}

int run_group_end(int argc, char **argv)
{
    pid_t pg;
    if (argc != 1 || !parse_pid(argv[0], &pg))
        return usage("end-group PGID");
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    end_group(pg);
    return 0;
}

int run_group_watch(int argc, char **argv)
{
    pid_t pg, driver, worker;
    char *end;
    if (argc != 5 || !parse_pid(argv[0], &pg) || !parse_pid(argv[3], &driver) || !parse_pid(argv[4], &worker))
        return usage("watch PGID LIMIT MARKER DRIVER WORKER");
    errno = 0;
    long limit = strtol(argv[1], &end, 10);
    if (argv[1][0] < '0' || argv[1][0] > '9' || *end != '\0' || errno != 0)
        return usage("watch PGID LIMIT MARKER DRIVER WORKER   (LIMIT: whole seconds, 0: none)");
    /* The worker ignores these; its watchdog must not. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (run_group_alive(pg)) {
        if (!alive(driver) || !alive(worker)) {
            end_group(pg);
            return 0;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (limit > 0 && now.tv_sec - start.tv_sec >= limit) {
            FILE *marker = fopen(argv[2], "w");
            if (marker != NULL) {
                fprintf(marker, "%s\n", argv[1]);
                fclose(marker);
            }
            end_group(pg);
            return 0;
        }
        pause_for(1000000000L);
    }
    return 0;
}
