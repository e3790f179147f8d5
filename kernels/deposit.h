/* The serial part of every CLOMP subcycle: how much to deposit next. */
#ifndef CLOMP_DEPOSIT_H
#define CLOMP_DEPOSIT_H

#include "problem.h"

/* Set-up: updates every part once with partRatio from zero values and derives
 * the residue statistics calc_deposit() and verification rely on. */
void calibrate_deposit(Problem *pb);

/* Next deposit per part: 1 plus the residue carried from the previous
 * subcycle, split evenly. Records a violation unless part 0 was updated
 * exactly once since the last call (detects illegal reordering). */
double calc_deposit(Problem *pb);

/* Zeroes values, residues and update counts, then updates every part with a
 * zero deposit (warms the cache, leaves every update_count at 1). */
void reinitialize_parts(Problem *pb);

/* Updates every part once with a zero deposit on the calling thread: a
 * subcycle's work on the mesh, to time it (update counts grow: reset with
 * reinitialize_parts() before a run). */
void sweep_parts_serially(Problem *pb);

/* n calc_deposit() calls with its reordering check satisfied each time, for
 * the measurements that time calc_deposit() on its own. */
void run_fooled_calc_deposits(Problem *pb, long n);

#endif
