/* The CLOMP 1.2 report: header, one block per measurement, comma-delimited
 * summary and the CORAL RFP line. 1.2's lines keep their text and columns;
 * clomp's additions come after them. */
#ifndef CLOMP_REPORT_H
#define CLOMP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "../kernels/problem.h"
#include "../kernels/schedule.h"
#include "../mesh/verify.h"
#include "build_info.h"

/* The run as resolved from the command line. */
typedef struct RunSetup {
    const char *exe;
    char invocation[1024];
    long inputNumThreads;     /* as given */
    long numThreads;          /* resolved */
    long allocThreads;        /* resolved */
    long inputAllocThreads;   /* as given (-1 stays -1), as CLOMP 1.2 reports it */
    long numParts;
    long zonesPerPart;
    long requestedZoneSize;
    long zoneSize;            /* as used */
    long flopScale;
    long timeScale;
    double uncapped_iterations;   /* before the 2e9 cap */
    long iterations;
    long subcycles;
    size_t memory_bytes;
    int nestedOuter;
    int nestedInner;
    Placement placement;
} RunSetup;

typedef struct Measurement {
    const Schedule *schedule;
    double seconds;
    TeamObservation team;
    MeshChecksum checksum;
    long subnormals;
} Measurement;

void print_header(FILE *out, const RunSetup *run, const char *host, const char *start_time);
void print_setup(FILE *out, const RunSetup *run, const Problem *pb, double build_seconds);
/* --dry-run: what a run would do, after the header, without a mesh. */
void print_plan(FILE *out, const RunSetup *run);

void print_block_start(FILE *out, const Measurement *m, const char *start_time);
/* serial / bestcase: earlier measurements this block is compared with (may be NULL). */
void print_block_results(FILE *out, const RunSetup *run, const Measurement *m,
                         const Measurement *serial, const Measurement *bestcase);

void print_summary(FILE *out, const RunSetup *run, const Measurement *results, size_t count);

double us_per_loop(const RunSetup *run, double seconds);

#endif
