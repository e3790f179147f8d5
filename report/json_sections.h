/* The parts of the --json document (json_report.c writes the whole): shared
 * by the JSON writer's files only; no other writer includes this. */
#ifndef CLOMP_JSON_SECTIONS_H
#define CLOMP_JSON_SECTIONS_H

#include "../measure/record.h"
#include "json.h"

/* [low, high], or null without an interval. */
void json_interval(JsonWriter *w, const char *key, int has, double low, double high);

/* "inputs" and "resolved": the run as given and as resolved. */
void write_json_inputs(JsonWriter *w, const RunSetup *run);
/* "build" and "openmp_environment". */
void write_json_build(JsonWriter *w);
/* "setup", "numa" (locality, thread placement) and "cycles". */
void write_json_setup(JsonWriter *w, const RunRecord *r);

/* A core clock sample (timing/core_clock.h) as "cycles" holds them, or null when not measured. */
void write_core_clock(JsonWriter *w, const char *key, const CoreClockSample *s);
/* "limits": clomp --limits (json_limits.c), or null. */
void write_json_limits(JsonWriter *w, const RunRecord *r);

/* "noise_census": the probe per thread and the timed runs' totals (json_noise.c). */
void write_json_noise(JsonWriter *w, const RunRecord *r);

/* One element of "measurements". */
void write_json_measurement(JsonWriter *w, const RunRecord *r, const Measurement *m);
/* "constructs": clomp --constructs's table, or null. */
void write_json_constructs(JsonWriter *w, const RunRecord *r);
/* json_ompt.c: "ompt" at the top level (--ompt and the runtime's answer),
 * and in a measurement (null without a tool attached). */
void write_json_ompt_setup(JsonWriter *w, const RunSetup *run);
void write_json_ompt_measurement(JsonWriter *w, const RunSetup *run, const Measurement *m);
/* clomp_mpi: "mpi", the ranks and each one's figures. */
void write_json_mpi(JsonWriter *w, const RunRecord *r);

#endif
