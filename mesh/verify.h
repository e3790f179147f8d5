/* Checks on mesh data after a schedule has run. */
#ifndef CLOMP_VERIFY_H
#define CLOMP_VERIFY_H

#include <stdio.h>

#include "mesh.h"

typedef struct MeshChecksum {
    double sum;        /* all zone values, parts and zones in order */
    double residue;    /* all part residues, in order */
    double total;      /* sum + residue */
} MeshChecksum;

/* What a correct run must show after `subcycles` subcycles. */
typedef struct VerifyExpectations {
    long subcycles;               /* done so far (cumulative over chunks) */
    long checkpoint;              /* Serial Ref's checkpoint for the same point */
    const char *where;            /* e.g. "in chunk 3 of 20 ...", appended to the failure count; may be NULL */
    double max_residue;
    long order_violations;        /* from calc_deposit(): must be 0 */
    long first_violation_count;
    int compare_to_reference;     /* 0 for the reference run itself */
} VerifyExpectations;

/* Room for `count` checkpoints (one per chunk); drops any recorded before.
 * Returns -1 when out of memory. */
int reserve_reference_checkpoints(Mesh *mesh, long count);

/* Stores, as checkpoint `checkpoint` (< the count reserved), each part's
 * first-zone value and residue and a hash of the bits of all its zone
 * values: what every checked schedule must reproduce at the same point. */
void record_reference(Mesh *mesh, long checkpoint);

/* The same for part p alone, with the hash its owner's check computed
 * (part_verifies): thread-safe for distinct parts, so the owners record the
 * checkpoint in parallel instead of one thread walking the whole mesh. */
void record_reference_part(Mesh *mesh, long checkpoint, long p, unsigned long long hash);

/* Order-sensitive hash of the bit patterns of a part's zone values: any
 * change to any zone, however small, changes it. */
unsigned long long zone_value_hash(const Part *part);

MeshChecksum mesh_checksum(const Mesh *mesh);

/* Tolerance of the conservation check sum(values) + sum(residues) ==
 * subcycles: 1e-5, widened by the worst-case rounding of very long runs. */
double conservation_tolerance(long subcycles);

/* Runs every check, prints each failure (schedule, part, zone, expected,
 * actual, also as %a) to `out`, stores the checksum it computed on the way
 * in *checksum (if not NULL), and returns the number of failures. */
long verify_against_reference(const Mesh *mesh, const VerifyExpectations *expect,
                              const char *schedule, FILE *out, MeshChecksum *checksum);

/* The same per-part checks, silent and thread-safe (reads part p and the
 * checkpoints only), for the owners of the parts to run in parallel: 1 when
 * part p passes them all. Its zone values' sum and its residue go to
 * *value_sum and *residue for mesh_totals_pass(), the hash of its zone values
 * to *hash unless NULL (for record_reference_part). */
int part_verifies(const Mesh *mesh, long p, const VerifyExpectations *expect, double *value_sum, double *residue,
                  unsigned long long *hash);

/* The whole-mesh checks (calc_deposit's order, conservation, residue bound)
 * from sums gathered per part; verify_against_reference() is the one that
 * says what failed. */
int mesh_totals_pass(const VerifyExpectations *expect, double value_sum, double residue_sum);

/* Zone values and residues that are subnormal: arithmetic on them is slow
 * enough on many CPUs to distort timings. Counted by a team of `threads`. */
long count_subnormals(const Mesh *mesh, int threads);

#endif
