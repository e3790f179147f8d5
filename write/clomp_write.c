/* clomp-write: how the suite drivers write their files (run_clomp.sh,
 * through put_file and add_to_file in suite/common.sh (the results package's
 * drivers of --compare and --sweep append the same way: driver_files.py); docs/security.md, "The suite driver"). An output
 * directory may be shared, and a suite resumed may have been copied from
 * someone else: a name the driver writes may be a link planted to a file
 * elsewhere. Nothing here writes through one.
 *
 *   clomp-write replace FILE   standard input becomes FILE: written to a new
 *       private name (.NAME.XXXXXX, mkstemp: O_CREAT|O_EXCL) in FILE's own
 *       directory, given FILE's mode (a new file: 0666 less the umask),
 *       fsynced, renamed over FILE, the directory fsynced. FILE must be a
 *       regular file or absent: a link, FIFO, device or directory there is
 *       refused, and nothing is written.
 *   clomp-write append FILE    standard input appended to FILE, opened
 *       O_WRONLY|O_APPEND|O_CREAT|O_NOFOLLOW|O_NONBLOCK (a link there: ELOOP,
 *       refused; a FIFO cannot block the open) and checked to be a regular
 *       file (fstat) before a byte is written; fsynced.
 *
 *   clomp-write get FILE PATH, entries FILE PATH [KEY], head FILE: the suite
 *       manifest read back by its JSON, whatever its layout (write/manifest_reader.h:
 *       exit 1 absent, 3 not a JSON document).
 *   clomp-write manifest FILE, manifest --plan: the suite manifest written
 *       (replaced as above) from the driver's facts (write/manifest_writer.c).
 *   clomp-write claim DIR HOST, refuse-links DIR STEM: a new suite's ID, and --resume's
 *       check that a suite's files are its own regular files (write/suite_names.h).
 *
 *   clomp-write lock, watch, end-group, journal, undo, drop-unrecorded, reason,
 *       write-failed: the suite driver's guards over its runs (write/run_guard.h).
 *
 * Exit 0 written; 1 refused or a write failed (one line on stderr:
 * "clomp-write: FILE: WHY", with the system's words, e.g. "No space left on
 * device"; a temporary file is removed and FILE left as it was); 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest_reader.h"
#include "manifest_writer.h"
#include "suite_names.h"
#include "eta.h"
#include "suite_sets.h"
#include "launcher.h"
#include "plan.h"
#include "preflight.h"
#include "slurm_facts.h"
#include "run_guard.h"
#include "resume_drop.h"
#include "machine.h"
#include "figure_rows.h"

static int fail(const char *file, const char *why)
{
    fprintf(stderr, "clomp-write: %s: %s\n", file, why);
    return 1;
}

static const char *kind(mode_t mode)
{
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISDIR(mode))
        return "a directory";
    return "not a regular file";
}

/* FROM's bytes to FD, every write checked; 0, or errno. */
static int copy_input(int from, int fd)
{
    char buf[1 << 16];
    for (;;) {
        ssize_t got = read(from, buf, sizeof buf);
        if (got == 0)
            return 0;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        for (ssize_t done = 0; done < got;) {
            ssize_t put = write(fd, buf + done, (size_t)(got - done));
            if (put < 0) {
                if (errno == EINTR)
                    continue;
                return errno;
            }
            done += put;
        }
    }
}

static int append(const char *file)
{
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
    if (fd < 0)
        return fail(file, errno == ELOOP   ? "a symbolic link: not written through (refused)"
                          : errno == ENXIO ? "a FIFO or device: not written (refused)"
                                           : strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(file, "not a regular file: not written (refused)");
    }
    int err = copy_input(STDIN_FILENO, fd);
    if (err == 0 && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && err == 0)
        err = errno;
    return err == 0 ? 0 : fail(file, strerror(err));
}

int replace_file(const char *file, int from)
{
    struct stat st;
    mode_t mode;
    if (lstat(file, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            char why[96];
            snprintf(why, sizeof why, "%s: not replaced (refused)", kind(st.st_mode));
            return fail(file, why);
        }
        mode = st.st_mode & 07777;
    } else if (errno == ENOENT) {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    } else {
        return fail(file, strerror(errno));
    }
    /* The private name beside FILE, and FILE's directory (to sync the rename). */
    char tmp[PATH_MAX], dir[PATH_MAX];
    const char *slash = strrchr(file, '/');
    int dir_len = slash == NULL ? 1 : (int)(slash - file) + (slash == file);
    int n = slash == NULL ? snprintf(tmp, sizeof tmp, ".%s.XXXXXX", file)
                          : snprintf(tmp, sizeof tmp, "%.*s/.%s.XXXXXX", (int)(slash - file), file, slash + 1);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return fail(file, strerror(ENAMETOOLONG));
    snprintf(dir, sizeof dir, "%.*s", dir_len, slash == NULL ? "." : file);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return fail(file, strerror(errno));
    int err = copy_input(from, fd);
    if (err == 0 && fchmod(fd, mode) != 0)
        err = errno;
    if (err == 0 && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && err == 0)
        err = errno;
    /* Planted while this wrote: still refused (rename would replace the link, not write through it,
     * but a link where a regular file was means someone else is writing here). */
    if (err == 0 && lstat(file, &st) == 0 && !S_ISREG(st.st_mode)) {
        unlink(tmp);
        return fail(file, "became a link or another kind of file while written: not replaced (refused)");
    }
    if (err == 0 && rename(tmp, file) != 0)
        err = errno;
    if (err != 0) {
        unlink(tmp);
        return fail(file, strerror(err));
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        if (fsync(dfd) != 0 && errno != EINVAL)
            err = errno;
        close(dfd);
    }
    return err == 0 ? 0 : fail(file, strerror(err));
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "replace") == 0)
        return replace_file(argv[2], STDIN_FILENO);
    if (argc == 3 && strcmp(argv[1], "append") == 0)
        return append(argv[2]);
    if (argc == 4 && strcmp(argv[1], "get") == 0)
        return manifest_get(stdout, argv[2], argv[3]);
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "entries") == 0)
        return manifest_entries(stdout, argv[2], argv[3], argc == 5 ? argv[4] : NULL);
    if (argc == 3 && strcmp(argv[1], "head") == 0)
        return manifest_head(stdout, argv[2]);
    if (argc >= 2 && strcmp(argv[1], "manifest") == 0)
        return manifest_write(argc - 2, argv + 2);
    if (argc == 4 && strcmp(argv[1], "claim") == 0)
        return suite_claim(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "refuse-links") == 0)
        return suite_refuse_links(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "out-dir") == 0)
        return suite_out_dir(argv[2]);
    if (argc >= 2 && strcmp(argv[1], "launcher") == 0)
        return launcher_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "plan") == 0)
        return plan_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "slurm") == 0)
        return slurm_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "preflight") == 0)
        return preflight_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "eta") == 0)
        return eta_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "sets") == 0)
        return suite_sets_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "watch") == 0)
        return run_group_watch(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "end-group") == 0)
        return run_group_end(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "lock") == 0)
        return suite_lock(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "journal") == 0)
        return record_journal_write(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "undo") == 0)
        return record_journal_undo(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "drop-unrecorded") == 0)
        return done_drop_unrecorded(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "reason") == 0)
        return run_reason_failure(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "write-failed") == 0)
        return run_reason_write(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "drop-unfinished") == 0)
        return resume_drop_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "machine") == 0)
        return machine_main(argc - 2, argv + 2);
    if (argc >= 2 && strcmp(argv[1], "figures") == 0)
        return figure_rows_main(argc - 2, argv + 2);
    fprintf(stderr, "usage: clomp-write replace|append FILE   (standard input written as FILE or appended to it;\n"
                    "       never through a link: write/clomp_write.c)\n"
                    "       clomp-write get FILE PATH | entries FILE PATH [KEY] | head FILE   (the suite manifest\n"
                    "       read by its JSON: write/manifest_reader.h)\n"
                    "       clomp-write manifest FILE | manifest --plan   (the suite manifest written from the\n"
                    "       driver's facts on standard input: write/manifest_writer.c)\n"
                    "       clomp-write claim DIR HOST | refuse-links DIR STEM | out-dir DIR   (a suite's names:\n"
                    "       write/suite_names.h)\n"
                    "       clomp-write launcher ...   (the --mpi launcher's ranks and layouts: write/launcher.c)\n"
                    "       clomp-write plan ...   (the suite's key runs and sweeps: write/plan.c)\n"
                    "       clomp-write slurm ...   (the Slurm job's facts: write/slurm_facts.c)\n"
                    "       clomp-write preflight ...   (the preflight warnings: write/preflight.c)\n"
                    "       clomp-write eta ...   (the suite's remaining time: write/eta.c)\n"
                    "       clomp-write sets ...   (the construct and offload runs: write/suite_sets.c)\n"
                    "       clomp-write lock|watch|end-group|journal|undo|drop-unrecorded|reason|write-failed ...\n"
                    "       (the suite's guards over its runs: write/run_guard.h)\n"

                    "       clomp-write drop-unfinished DIR/BASE   (--resume: write/resume_drop.c)\n"
                    "       clomp-write machine DIR [EXE]   (a bundle's machine description: write/machine.c)\n"
                    "       clomp-write figures SET COLUMN...   (the catalogue's rows: write/figure_rows.c)\n");
    return 2;
}
