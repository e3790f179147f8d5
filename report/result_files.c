#include "result_files.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../cli/exit_status.h"
#include "csv_report.h"
#include "json_report.h"

static int open_result_file(ResultFile *rf, Outputs *o, char *why, size_t why_size)
{
    if (rf->path == NULL)
        return 0;
    if (strcmp(rf->path, "-") == 0) {
        o->text = stderr;
        rf->file = stdout;
        return 0;
    }
    /* An existing file is only replaced by a complete document. */
    if ((size_t)snprintf(rf->tmp, sizeof rf->tmp, "%s.tmp.%ld", rf->path, (long)getpid()) >= sizeof rf->tmp) {
        snprintf(why, why_size, "%s: the file name is too long", rf->option);
        return EXIT_USAGE;
    }
    rf->file = fopen(rf->tmp, "w");
    if (rf->file == NULL) {
        snprintf(why, why_size, "%s: cannot create '%s': %s", rf->option, rf->tmp, strerror(errno));
        return EXIT_USAGE;
    }
    snprintf(rf->pending, RESULT_PATH_MAX, "%s", rf->tmp);
    return 0;
}

int open_outputs(Outputs *o, const RunSetup *run, char pending[2][RESULT_PATH_MAX], char *why, size_t why_size)
{
    memset(o, 0, sizeof *o);
    o->text = stdout;
    o->json = (ResultFile){"--json", run->json_path, write_json_report, NULL, "", pending[0]};
    o->csv = (ResultFile){"--csv", run->csv_path, write_csv_report, NULL, "", pending[1]};
    int status = open_result_file(&o->json, o, why, why_size);
    if (status == 0)
        status = open_result_file(&o->csv, o, why, why_size);
    o->report = run->quiet ? NULL : o->text;
    if (status != 0) {   /* nothing half-made stays behind: the file opened before the one that failed goes */
        ResultFile *opened[] = {&o->json, &o->csv};
        for (int i = 0; i < 2; i++)
            if (opened[i]->file != NULL && opened[i]->file != stdout) {
                fclose(opened[i]->file);
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

/* Writes the file (if asked for); one that cannot be written is a resource
 * failure, reported after the run's own status. */
static int close_result_file(ResultFile *rf, const RunRecord *record)
{
    if (rf->file == NULL)
        return 0;
    int failed = rf->write(rf->file, record) != 0;
    if (rf->file != stdout) {
        failed |= fclose(rf->file) != 0;
        if (!failed && rename(rf->tmp, rf->path) != 0)
            failed = 1;
        if (failed)
            remove(rf->tmp);
    }
    rf->file = NULL;
    rf->pending[0] = '\0';
    if (failed)
        fprintf(stderr, "clomp: could not write the %s report to '%s'\n", rf->option + 2, rf->path);
    return failed ? EXIT_RESOURCE : 0;
}

int close_outputs(Outputs *o, const RunRecord *record)
{
    int json_status = close_result_file(&o->json, record);
    int csv_status = close_result_file(&o->csv, record);
    return json_status != 0 ? json_status : csv_status;
}
