/* Open MPI's mpirun refuses to start as root unless allowed (--allow-run-as-root,
 * or OMPI_ALLOW_RUN_AS_ROOT=1 with OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1), and every
 * run of a suite would fail: the driver's message saying how to allow it, or
 * nothing (clomp-write launcher root-refusal, suite/env_file.sh's
 * check_mpi_root, which has seen that it runs as root). The launcher is asked
 * for its --version to tell Open MPI's from another MPI's. */
#define _POSIX_C_SOURCE 200809L
#include "mpi_root.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Whether PROGRAM --version (its output and errors) names Open MPI or OpenRTE. */
static int says_open_mpi(const char *program)
{
    int fds[2], found = 0;
    char *text = NULL;
    size_t size = 0;
    FILE *f = NULL;
    if (pipe(fds) != 0)
        return 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char *argv[] = {(char *)program, "--version", NULL};
        dup2(fds[1], 1), dup2(fds[1], 2);
        close(fds[0]), close(fds[1]);
        execvp(program, argv);
        _exit(127);
    }
    close(fds[1]);
    if (pid > 0 && (f = open_memstream(&text, &size))) {
        char buf[4096];
        for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
            fwrite(buf, 1, (size_t)n, f);
        fclose(f);
        /* its text, as grep reads it: NUL bytes end nothing */
        for (size_t i = 0; text && i < size; i++)
            if (text[i] == '\0')
                text[i] = '\n';
        found = text && (strstr(text, "Open MPI") || strstr(text, "OpenRTE"));
        free(text);
    }
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    return found;
}

void mpi_root_refusal(const char *program, const char *command)
{
    const char *slash = strrchr(program, '/'), *name = slash ? slash + 1 : program;
    const char *allow = getenv("OMPI_ALLOW_RUN_AS_ROOT"), *confirm = getenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM");
    int open_mpi_name = strcmp(name, "mpirun") == 0 || strcmp(name, "mpiexec") == 0 || strcmp(name, "orterun") == 0 ||
                        strncmp(name, "mpirun.", 7) == 0 || strncmp(name, "mpiexec.", 8) == 0;
    if (!open_mpi_name || !says_open_mpi(program))
        return;
    char *spaced = malloc(strlen(command) + 3);
    if (spaced)
        sprintf(spaced, " %s ", command);
    int allowed = !spaced || strstr(spaced, " --allow-run-as-root ") ||
                  (allow && strcmp(allow, "1") == 0 && confirm && strcmp(confirm, "1") == 0);
    free(spaced);
    if (!allowed)
        printf("--mpi: Open MPI's %s refuses to run as root, so every run would fail: add --allow-run-as-root to \"%s\", "
               "or export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1, or run as another user\n",
               program, command);
}
