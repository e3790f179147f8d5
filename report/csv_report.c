#include "csv_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/problem.h"
#include "record_figures.h"

/* Appended, never inserted: tools address the columns by name, but a
 * spreadsheet made from an older file should still line up. */
static const char header[] =
    "key,name,role,selected,threads,verification,verified_chunks,runtime_seconds,us_per_loop,us_per_loop_ci_low,"
    "us_per_loop_ci_high,cv,speedup,efficacy_percent,overhead_us,overhead_ci_low,overhead_ci_high,ghz,"
    "us_per_loop_cycles,overhead_cycles,overhead_cycles_ci_low,overhead_cycles_ci_high,llnl_target_below_cycles,"
    "llnl_target_cycles,llnl_verdict,checksum_sum,checksum_residue,checksum_total,status,exit_status,numThreads,"
    "allocThreads,numParts,zonesPerPart,zoneSize,flopScale,timeScale,numa,trials,rounds,iterations,host,zone_stride,"
    "user_cpu_seconds,system_cpu_seconds\n";

/* RFC 4180: quoted when it holds a comma, quote or line break. */
static void text_cell(FILE *out, const char *text)
{
    fputc(',', out);
    if (text == NULL)
        return;
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* As the JSON writes numbers: the shortest text that reads back as the
 * same double; empty where the JSON has null. */
static void number_cell(FILE *out, double value)
{
    fputc(',', out);
    if (!isfinite(value))
        return;
    char text[32];
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(text, sizeof text, "%.*g", precision, value);
        if (strtod(text, NULL) == value)
            break;
    }
    fputs(text, out);
}

static void integer_cell(FILE *out, long value)
{
    fprintf(out, ",%ld", value);
}

static void write_row(FILE *out, const RunRecord *r, const Measurement *m)
{
    const RunSetup *run = r->run;
    const CycleRate *rate = &run->cycles;
    MeasurementFigures f;
    char policy[32];
    measurement_figures(r, m, &f);

    fputs(m->schedule->key, out);
    text_cell(out, m->schedule->name);
    text_cell(out, f.role);
    integer_cell(out, m->selected);
    if (f.threads >= 0)
        integer_cell(out, f.threads);
    else
        text_cell(out, NULL);
    text_cell(out, f.verification);
    integer_cell(out, m->verified_chunks);
    number_cell(out, f.runtime_seconds);
    number_cell(out, f.us);
    number_cell(out, f.us_low);
    number_cell(out, f.us_high);
    number_cell(out, f.cv);
    number_cell(out, f.speedup);
    number_cell(out, f.efficacy);
    number_cell(out, f.overhead);
    number_cell(out, f.overhead_low);
    number_cell(out, f.overhead_high);
    number_cell(out, rate->source == CYCLES_UNAVAILABLE ? NAN : rate->ghz);
    number_cell(out, cycles_from_us(rate, f.us));
    number_cell(out, cycles_from_us(rate, f.overhead));
    number_cell(out, cycles_from_us(rate, f.overhead_low));
    number_cell(out, cycles_from_us(rate, f.overhead_high));
    number_cell(out, f.target_below > 0.0 ? f.target_below : NAN);
    number_cell(out, f.target_below > 0.0 ? f.target_cycles : NAN);
    text_cell(out, f.target_below > 0.0 ? f.target_verdict : NULL);
    number_cell(out, f.has_checksum ? f.checksum.sum : NAN);
    number_cell(out, f.has_checksum ? f.checksum.residue : NAN);
    number_cell(out, f.has_checksum ? f.checksum.total : NAN);
    text_cell(out, record_status(r));
    integer_cell(out, r->exit_status);
    /* The inputs as the CORAL RFP line gives them. */
    integer_cell(out, run->numThreads);
    integer_cell(out, run->inputAllocThreads);
    integer_cell(out, run->numParts);
    integer_cell(out, run->zonesPerPart);
    integer_cell(out, run->zoneSize);
    integer_cell(out, run->flopScale);
    integer_cell(out, run->timeScale);
    text_cell(out, placement_text(&run->placement, policy, sizeof policy));
    integer_cell(out, run->trials);
    integer_cell(out, run->rounds);
    integer_cell(out, run->iterations);
    text_cell(out, r->host);
    text_cell(out, run->zoneLayout == ZONE_LAYOUT_SPREAD ? "zonesize" : "record");
    /* The whole process's, the same on every row (the JSON's process_cost). */
    number_cell(out, r->cost.measured ? r->cost.user_seconds : NAN);
    number_cell(out, r->cost.measured ? r->cost.system_seconds : NAN);
    fputc('\n', out);
}

int write_csv_report(FILE *out, const RunRecord *r)
{
    fputs(header, out);
    for (size_t i = 0; r->results != NULL && i < r->count; i++)
        if (measurement_reported(&r->results[i]))
            write_row(out, r, &r->results[i]);
    return fflush(out) != 0 || ferror(out) ? -1 : 0;
}
