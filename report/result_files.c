#include "result_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../cli/exit_status.h"
#include "csv_report.h"
#include "json_report.h"
#include "text_report.h"

/* The mode a new file gets from open(..., 0666): the umask applied. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* The standard stream (1 or 2) that already writes the file `st`
 * (--csv=/dev/stdout with stdout redirected to a file), else 0: such a file
 * is written through that stream, never renamed away from under it. */
static int standard_stream(const struct stat *st)
{
    for (int fd = STDOUT_FILENO; fd <= STDERR_FILENO; fd++) {
        struct stat s;
        if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
            return fd;
    }
    return 0;
}

/* A device, FIFO or standard stream (--csv=/dev/stdout, a named pipe) is
 * written where it is: never unlinked, never replaced by a regular file.
 * -1: the path leads to a regular file, to be replaced (below). */
static int open_in_place(ResultFile *rf, char *why, size_t why_size)
{
    struct stat st;
    if (stat(rf->path, &st) == 0 && standard_stream(&st) != 0) {
        rf->file = standard_stream(&st) == STDOUT_FILENO ? stdout : stderr;
        rf->in_place = 1;
        return 0;
    }
    int fd = open(rf->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(why, why_size, "%s: cannot open '%s': %s", rf->option, rf->path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return EXIT_USAGE;
    }
    if (S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        close(fd);
        snprintf(why, why_size, "%s: '%s' is not a regular file, a device or a FIFO", rf->option, rf->path);
        return EXIT_USAGE;
    }
    rf->file = fdopen(fd, "w");
    if (rf->file == NULL) {
        close(fd);
        snprintf(why, why_size, "%s: cannot open '%s': %s", rf->option, rf->path, strerror(errno));
        return EXIT_USAGE;
    }
    rf->in_place = 1;
    return 0;
}

/* An existing regular file (or a new name) is only replaced by a complete
 * document: written to a temporary file that mkstemp creates in the same
 * directory (O_CREAT|O_EXCL: a link planted at any name is never
 * followed), with the mode of the file it replaces, renamed over it when
 * complete. Anything else at the path is written in place or refused. */
static int open_result_file(ResultFile *rf, Outputs *o, char *why, size_t why_size)
{
    rf->in_place = 0;
    if (rf->path == NULL)
        return 0;
    if (strcmp(rf->path, "-") == 0) {
        o->text = stderr;
        rf->file = stdout;
        return 0;
    }
    struct stat st;
    mode_t mode = new_file_mode();
    if (lstat(rf->path, &st) != 0) {
        /* a new name (or one mkstemp cannot create beside: said below) */
    } else if (S_ISREG(st.st_mode) && standard_stream(&st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        /* A link, device, FIFO, directory...: follow it, and write in place
         * unless it leads to a regular file, which is then replaced where it is. */
        int status = open_in_place(rf, why, why_size);
        if (status >= 0)
            return status;
        if (stat(rf->path, &st) == 0)
            mode = st.st_mode & 07777;
    }
    if ((size_t)snprintf(rf->tmp, sizeof rf->tmp, "%s.tmp.%ld.XXXXXX", rf->path, (long)getpid()) >= sizeof rf->tmp) {
        snprintf(why, why_size, "%s: the file name is too long", rf->option);
        return EXIT_USAGE;
    }
    int fd = mkstemp(rf->tmp);
    if (fd < 0) {
        snprintf(why, why_size, "%s: cannot create a temporary file beside '%s': %s", rf->option, rf->path,
                 strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(rf->pending, RESULT_PATH_MAX, "%s", rf->tmp);
    if (fchmod(fd, mode) != 0 || (rf->file = fdopen(fd, "w")) == NULL) {
        snprintf(why, why_size, "%s: cannot set up '%s': %s", rf->option, rf->tmp, strerror(errno));
        close(fd);
        unlink(rf->tmp);
        rf->pending[0] = '\0';
        return EXIT_USAGE;
    }
    return 0;
}

int open_outputs(Outputs *o, const RunSetup *run, char pending[2][RESULT_PATH_MAX], char *why, size_t why_size)
{
    memset(o, 0, sizeof *o);
    o->text = stdout;
    o->json = (ResultFile){.option = "--json", .path = run->json_path, .write = write_json_report, .pending = pending[0]};
    o->csv = (ResultFile){.option = "--csv", .path = run->csv_path, .write = write_csv_report, .pending = pending[1]};
    int status = open_result_file(&o->json, o, why, why_size);
    if (status == 0)
        status = open_result_file(&o->csv, o, why, why_size);
    o->report = run->quiet ? NULL : o->text;
    if (status != 0) {   /* nothing half-made stays behind: the file opened before the one that failed goes */
        ResultFile *opened[] = {&o->json, &o->csv};
        for (int i = 0; i < 2; i++)
            if (opened[i]->file != NULL && opened[i]->file != stdout && opened[i]->file != stderr) {
                fclose(opened[i]->file);
                if (!opened[i]->in_place)
                    remove(opened[i]->tmp);
                opened[i]->file = NULL;
                opened[i]->pending[0] = '\0';
            }
    }
    return status;
}

int open_report(Outputs *o, char *why, size_t why_size)
{
    if (o->report != NULL)
        return 0;
    o->report = fopen("/dev/null", "w");
    if (o->report != NULL)
        return 0;
    snprintf(why, why_size, "--quiet: cannot open /dev/null: %s", strerror(errno));
    return EXIT_RESOURCE;
}

/* Writes the file (if asked for); one that cannot be written (a full disk,
 * an I/O error) is a resource failure, said in one line with the system's
 * reason, reported after the run's own status; the file it would have
 * replaced stays as it was. */
static int close_result_file(ResultFile *rf, const RunRecord *record)
{
    if (rf->file == NULL)
        return 0;
    int failed = rf->write(rf->file, record) != 0;
    int error = failed ? errno : 0;
    if (fflush(rf->file) != 0 || ferror(rf->file)) {
        error = error != 0 ? error : errno;
        failed = 1;
    }
    if (rf->file != stdout && rf->file != stderr) {
        /* On disk before it is renamed: a crash leaves the old file or the new one. */
        if (!failed && !rf->in_place && fsync(fileno(rf->file)) != 0 && errno != EINVAL)
            error = errno, failed = 1;
        if (fclose(rf->file) != 0 && !failed)
            error = errno, failed = 1;
        if (!failed && !rf->in_place && rename(rf->tmp, rf->path) != 0)
            error = errno, failed = 1;
        if (failed && !rf->in_place)
            remove(rf->tmp);
    }
    rf->file = NULL;
    rf->pending[0] = '\0';
    if (failed)
        fprintf(stderr, "clomp: could not write the %s report to '%s': %s\n", rf->option + 2, rf->path,
                error != 0 ? strerror(error) : "write error");
    return failed ? EXIT_RESOURCE : 0;
}

int close_outputs(Outputs *o, const RunRecord *record)
{
    int json_status = close_result_file(&o->json, record);
    int csv_status = close_result_file(&o->csv, record);
    return json_status != 0 ? json_status : csv_status;
}

int write_figure_list(FILE *out, int json)
{
    if (json)
        return write_figure_list_json(out);
    print_figure_list(out);
    return 0;
}
