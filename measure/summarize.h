/* A measurement's figures from the raw chunk timings in its record: the
 * median and its interval, Runtime, the overhead against Bestcase with its
 * interval, efficacy; then the warnings that follow from them. Reads and
 * fills the record; times nothing. The sequence summarizes each measurement
 * after its last round, clomp_mpi's rank view the rank it shows. */
#ifndef CLOMP_SUMMARIZE_H
#define CLOMP_SUMMARIZE_H

#include "record.h"

/* The figures of one measurement from its chunks (bestcase: the summarized
 * measurement its overhead is taken against, or NULL). */
void summarize_measurement(Measurement *m, const Measurement *bestcase);

/* Whether the summarized figures are a result (Measurement.invalid and its
 * reason; summarize_measurement calls it): not when its Runtime us/Loop and
 * median chunk differ by more than CLOMP_MEAN_MEDIAN_FACTOR either way, nor
 * when it ran faster than Bestcase OMP beyond its overhead's 95% interval
 * (with 2-5 rounds: in every round). */
void judge_validity(Measurement *m);

/* summarize_measurement() and the warnings that follow from the figures. */
void finish_measurement(const RunSetup *run, Measurement *m, const Measurement *bestcase);

#endif
