/* The machine description that goes into a submission bundle (results/machine.sh, which
 * makes DIR and runs clomp-write machine DIR [EXE]): one file per source, written into DIR:
 *   lscpu.txt, lscpu-cores.csv (one line per CPU: the validator counts cores, the unique
 *   core, socket pairs, from it), numactl-H.txt, lstopo.txt   each command's output and
 *       errors, "(COMMAND ARGS exited N)" after them when it fails, or "not available:
 *       COMMAND is not installed" when the PATH has none;
 *   kernel.txt   uname -a, /proc/version, /proc/cmdline, the CPUs this process may run on
 *       and nproc without OMP_NUM_THREADS/OMP_THREAD_LIMIT (which nproc obeys);
 *   governor.txt   each CPU's frequency governor, NUMA balancing, transparent hugepages;
 *   meminfo.txt   /proc/meminfo's first three lines;
 *   build.txt   EXE --version (with EXE only).
 * Taken when the suite starts, so that a bundle made later still describes the node the
 * numbers came from. Byte for byte what the shell script did before (tests/machine.t keeps it). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine.h"

static const char *out_dir;

/* NAME found on the PATH as an executable file (as `command -v` finds it). */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    char full[PATH_MAX];
    struct stat st;
    if (strchr(name, '/'))
        return access(name, X_OK) == 0;
    while (path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (snprintf(full, sizeof full, "%.*s/%s", (int)len, len ? path : ".", name) < (int)sizeof full &&
            stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0)
            return 1;
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* ARGV run with standard output to fd OUT and standard error to fd ERR (-1: /dev/null), standard
 * input from /dev/null with NO_INPUT; its exit status as the shell gives it ($?: 128 + a signal's
 * number, 127 when it cannot start). */
static int run_from(char *const argv[], int out, int err, int no_input)
{
    int status;
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        if (err < 0)
            err = open("/dev/null", O_WRONLY);
        if (no_input)
            dup2(open("/dev/null", O_RDONLY), STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return 127;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run(char *const argv[], int out, int err)
{
    return run_from(argv, out, err, 0);
}

/* DIR/FILE opened for writing (truncated, or appended to); exits 1 when it cannot be. */
static FILE *open_out(const char *file, const char *mode)
{
    char path[PATH_MAX];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", out_dir, file);
    if (!(f = fopen(path, mode))) {
        fprintf(stderr, "clomp-write machine: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

/* ARGV's output and errors in FILE, "(ARGV exited N)" after them when it fails; AVAILABLE 0:
 * why there is none. */
static void capture_to(const char *file, char *const argv[], int available)
{
    FILE *f = open_out(file, "w");
    int rc;
    if (!available) {
        fprintf(f, "not available: %s is not installed\n", argv[0]);
        fclose(f);
        return;
    }
    rc = run(argv, fileno(f), fileno(f));
    fclose(f);
    if (rc != 0) {
        f = open_out(file, "a");
        fputc('(', f);
        for (int i = 0; argv[i]; i++)
            fprintf(f, "%s%s", i ? " " : "", argv[i]);
        fprintf(f, " exited %d)\n", rc);
        fclose(f);
    }
}

static void capture(const char *file, char *const argv[])
{
    capture_to(file, argv, on_path(argv[0]));
}

/* FD's bytes to its end (NULs dropped, as the shell's $(...) drops them), trailing newlines cut. */
static void print_trimmed(FILE *out, int fd)
{
    char *text = NULL, buf[4096];
    size_t len = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        char *grown;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || !(grown = realloc(text, len + (size_t)n)))
            break;
        text = grown;
        for (ssize_t i = 0; i < n; i++)
            if (buf[i])
                text[len++] = buf[i];
    }
    while (len > 0 && text[len - 1] == '\n')
        len--;
    fwrite(text ? text : "", 1, len, out);
    free(text);
}

/* LABEL, then ARGV's output trimmed (as "LABEL$(ARGV)"); its errors to ERR (-1: /dev/null). */
static void print_command(FILE *out, const char *label, char *const argv[], int err)
{
    FILE *tmp = tmpfile();
    fputs(label, out);
    if (!tmp)
        return;
    run(argv, fileno(tmp), err);
    lseek(fileno(tmp), 0, SEEK_SET);
    print_trimmed(out, fileno(tmp));
    fclose(tmp);
}

/* LABEL, then FILE's text trimmed, or "not available" when it cannot be read. */
static void print_file(FILE *out, const char *label, const char *file)
{
    int fd = open(file, O_RDONLY);
    fputs(label, out);
    if (fd < 0) {
        fputs("not available", out);
        return;
    }
    print_trimmed(out, fd);
    close(fd);
}

static void kernel_txt(void)
{
    FILE *f = open_out("kernel.txt", "w"), *status;
    char *uname_a[] = {"uname", "-a", NULL};
    char *nproc[] = {"env", "-u", "OMP_NUM_THREADS", "-u", "OMP_THREAD_LIMIT", "nproc", NULL};
    char *line = NULL;
    size_t cap = 0;
    print_command(f, "uname -a: ", uname_a, STDERR_FILENO);
    print_file(f, "\n/proc/version: ", "/proc/version");
    print_file(f, "\n/proc/cmdline: ", "/proc/cmdline");
    fputs("\ncpus allowed: ", f);
    if ((status = fopen("/proc/self/status", "r"))) {
        while (getline(&line, &cap, status) > 0) {
            if (strncmp(line, "Cpus_allowed_list:", 18) != 0)
                continue;
            char *value = line + 18 + strspn(line + 18, " \t\n\v\f\r");
            size_t len = strlen(value);
            while (len > 0 && value[len - 1] == '\n')
                len--;
            fwrite(value, 1, len, f);
        }
        free(line);
        fclose(status);
    }
    print_command(f, "\nnproc: ", nproc, -1);
    fputs("\n", f);
    fclose(f);
}

/* Each CPU's governor (the CPUs in the order of the shell's glob: the locale's collation), then
 * NUMA balancing and transparent hugepages. */
#define CPU_DIR "/sys/devices/system/cpu/"
static void governor_txt(void)
{
    FILE *f = open_out("governor.txt", "w");
    glob_t g;
    int found = 0;
    if (glob(CPU_DIR "cpu[0-9]*/cpufreq/scaling_governor", 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            const char *cpu = g.gl_pathv[i] + strlen(CPU_DIR);
            if (access(g.gl_pathv[i], R_OK) != 0)
                continue;
            found = 1;
            fprintf(f, "%.*s: ", (int)strcspn(cpu, "/"), cpu);
            print_file(f, "", g.gl_pathv[i]);
            fputs("\n", f);
        }
        globfree(&g);
    }
    if (!found)
        fputs("not available (no cpufreq in /sys)\n", f);
    print_file(f, "numa_balancing: ", "/proc/sys/kernel/numa_balancing");
    print_file(f, "\ntransparent hugepages: ", "/sys/kernel/mm/transparent_hugepage/enabled");
    fputs("\n", f);
    fclose(f);
}

/* /proc/meminfo's first three lines, or "not available". */
static void meminfo_txt(void)
{
    FILE *f = open_out("meminfo.txt", "w"), *in = fopen("/proc/meminfo", "r");
    int c, lines = 0;
    if (!in)
        fputs("not available\n", f);
    while (in && lines < 3 && (c = getc(in)) != EOF) {
        putc(c, f);
        lines += c == '\n';
    }
    if (in)
        fclose(in);
    fclose(f);
}

enum { WITH_ERRORS = 1, NO_INPUT = 2 };

/* .env's sections (suite/env_file.sh take_env_sections), each HEADING and text ended by a NUL,
 * the text as the shell's $(...) gives it: ARGV's output (and its errors, with WITH_ERRORS; its
 * input /dev/null with NO_INPUT), then FALLBACK when it fails (none: NULL). */
static void section(const char *heading, char *const argv[], int how, const char *fallback)
{
    FILE *tmp = tmpfile();
    printf("%s%c", heading, 0);
    if (tmp) {
        int rc = run_from(argv, fileno(tmp), how & WITH_ERRORS ? fileno(tmp) : -1, how & NO_INPUT);
        if (rc != 0 && fallback)
            fprintf(tmp, "%s\n", fallback);
        fflush(tmp);
        lseek(fileno(tmp), 0, SEEK_SET);
        print_trimmed(stdout, fileno(tmp));
        fclose(tmp);
    }
    printf("%c", 0);
}

/* A section that is its HEADING alone: LABEL and FILE's text (or "not available"). */
static void state_section(const char *label, const char *file)
{
    print_file(stdout, label, file);
    printf("%c%c", 0, 0);
}

/* --sections EXE: the build facts, cores and domains, CPU, memory and NUMA layout; --state: the
 * load, cpu0's governor, NUMA balancing and transparent hugepages, each a heading with no text. */
static int env_sections(int argc, char **argv)
{
    char *head[] = {"head", "-n", "3", "/proc/meminfo", NULL}, *lscpu[] = {"lscpu", NULL};
    char heading[PATH_MAX + 64];
    if (strcmp(argv[0], "--state") == 0 && argc == 1) {
        state_section("load average: ", "/proc/loadavg");
        state_section("cpu frequency governor: ", "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor");
        state_section("numa_balancing: ", "/proc/sys/kernel/numa_balancing");
        state_section("transparent hugepages: ", "/sys/kernel/mm/transparent_hugepage/enabled");
        return 0;
    }
    if (strcmp(argv[0], "--sections") != 0 || argc != 2)
        return 2;
    char *version[] = {argv[1], "--version", NULL}, *topology[] = {argv[1], "--topology", NULL};
    snprintf(heading, sizeof heading, "build facts (%s --version)", argv[1]);
    section(heading, version, WITH_ERRORS, "not available");
    snprintf(heading, sizeof heading, "cores and domains (%s --topology)", argv[1]);
    section(heading, topology, WITH_ERRORS | NO_INPUT, "not available");
    section("CPU (lscpu)", lscpu, 0, "not available");
    section("memory (/proc/meminfo)", head, 0, "not available");
    if (on_path("numactl")) {
        char *numactl[] = {"numactl", "--hardware", NULL};
        section("NUMA layout", numactl, WITH_ERRORS, NULL);
    } else if (on_path("lstopo-no-graphics")) {
        char *lstopo[] = {"lstopo-no-graphics", NULL};
        section("NUMA layout", lstopo, WITH_ERRORS, NULL);
    } else
        printf("NUMA layout%cnot available (install numactl or hwloc)%c", 0, 0);
    return 0;
}

int machine_main(int argc, char **argv)
{
    char *lscpu[] = {"lscpu", NULL}, *cores[] = {"lscpu", "-p=CPU,CORE,SOCKET,NODE", NULL};
    char *numactl[] = {"numactl", "-H", NULL};
    char *lstopo[] = {"lstopo-no-graphics", "--of", "console", NULL};
    if (argc < 1 || argc > 2 || (argv[0][0] == '-' && env_sections(argc, argv) != 0)) {
        fprintf(stderr, "usage: clomp-write machine DIR [EXE]   (DIR made by the caller: results/machine.sh)\n"
                        "       clomp-write machine --sections EXE | --state   (.env's: suite/env_file.sh)\n");
        return 2;
    }
    if (argv[0][0] == '-')
        return 0;
    setlocale(LC_ALL, "");
    out_dir = argv[0];
    capture("lscpu.txt", lscpu);
    capture("lscpu-cores.csv", cores);
    capture("numactl-H.txt", numactl);
    if (!on_path(lstopo[0]))
        lstopo[0] = "lstopo";
    capture("lstopo.txt", lstopo);
    kernel_txt();
    governor_txt();
    meminfo_txt();
    if (argc == 2 && argv[1][0]) {
        char *version[] = {argv[1], "--version", NULL};
        capture_to("build.txt", version, 1);
    }
    return 0;
}
