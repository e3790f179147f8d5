/* One driver at a time per suite ID (suite/run_guard.sh, lock_suite; docs/suite.md "Locks,
 * timeouts and failures"): an exclusive flock on the descriptor the driver opened on <base>.env,
 * which it keeps (and the runs it starts inherit) for as long as it lives; the lock is the open
 * file's, so it outlives this process, as flock(1)'s does.
 *
 *   clomp-write lock FD HOLDER ID   takes the lock on FD, without waiting. The holder's note
 *       HOLDER ("PID HOST SINCE PGID", PGID the run in progress or -) may be anyone's (a shared
 *       directory): it is read only when a regular file and not a link, and only its words in
 *       plain characters are used. Refused (exit 3, one line on stdout: the driver's message)
 *       when another driver holds the lock, or when the lock is free but a run of the previous
 *       driver on this node still runs.
 *
 * Exit 0 locked; 2 usage; 3 refused. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "run_guard.h"

/* WORD when it is 1 to 9 digits, else "". */
static const char *number_or_empty(const char *word)
{
    size_t n = strlen(word);
    return n >= 1 && n <= 9 && strspn(word, "0123456789") == n ? word : "";
}

/* Every byte of WORD outside ALLOWED (and the letters and digits) made '?'. */
static void plain(char *word, const char *allowed, int lower)
{
    for (unsigned char *p = (unsigned char *)word; *p != '\0'; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') || (lower && *p >= 'a' && *p <= 'z') ||
              strchr(allowed, *p) != NULL))
            *p = '?';
}

int suite_lock(int argc, char **argv)
{
    char *end;
    long fd = argc == 3 ? strtol(argv[0], &end, 10) : -1;
    if (argc != 3 || *argv[0] == '\0' || *end != '\0' || fd < 0) {
        fprintf(stderr, "usage: clomp-write lock FD HOLDER ID\n");
        return 2;
    }
    const char *holder = argv[1], *id = argv[2];
    char *line = NULL;
    size_t cap = 0;
    struct stat st, lst;
    if (stat(holder, &st) == 0 && S_ISREG(st.st_mode) && lstat(holder, &lst) == 0 && !S_ISLNK(lst.st_mode)) {
        FILE *f = fopen(holder, "r");
        if (f != NULL && getline(&line, &cap, f) < 0 && line != NULL)
            line[0] = '\0';
        if (f != NULL)
            fclose(f);
    }
    if (line == NULL)
        line = calloc(1, 1);
    if (line == NULL)
        return 3;
    line[strcspn(line, "\n")] = '\0';
    char *at = line, *pid_word = shell_word(&at, 0), *host = shell_word(&at, 0), *since = shell_word(&at, 0),
         *pg_word = shell_word(&at, 1);
    const char *pid = number_or_empty(pid_word), *pg = number_or_empty(pg_word);
    plain(host, "._-", 1);
    plain(since, ":-", 0);
    struct utsname self;
    int here = uname(&self) == 0 && strcmp(host, self.nodename) == 0;
    int status = 3;
    if (flock((int)fd, LOCK_EX | LOCK_NB) != 0) {
        if (*pid != '\0' && here && kill((pid_t)strtol(pid, NULL, 10), 0) != 0 && *pg != '\0')
            printf("suite %s: its driver (pid %s on %s) is gone, but its run (process group %s) still runs; "
                   "wait for it to end or stop it (kill -- -%s), then resume\n",
                   id, pid, host, pg, pg);
        else if (*pid == '\0')
            printf("suite %s is in use by another run_clomp.sh (which did not note its pid); one driver at a time\n", id);
        else
            printf("suite %s is in use by run_clomp.sh (pid %s on %s since %s); one driver at a time\n", id, pid, host, since);
    } else if (*pg != '\0' && here && run_group_alive((pid_t)strtol(pg, NULL, 10))) {
        /* The lock is free, yet a run the dead driver started may have let go of it. */
        printf("suite %s: a run of its previous driver (pid %s, process group %s) still runs; "
               "wait for it to end or stop it (kill -- -%s), then resume\n",
               id, pid, pg, pg);
    } else {
        status = 0;
    }
    free(line);
    return status;
}
