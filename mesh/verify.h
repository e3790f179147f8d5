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

/* What a correct run of `subcycles` subcycles must show. */
typedef struct VerifyExpectations {
    long subcycles;
    double max_residue;
    long order_violations;        /* from calc_deposit(): must be 0 */
    long first_violation_count;
    int compare_to_reference;     /* 0 for the reference run itself */
} VerifyExpectations;

/* Stores each part's first-zone value and residue as the expected result,
 * and a hash of the bits of all its zone values. Returns -1 when out of memory. */
int record_reference(Mesh *mesh);

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

/* Zone values and residues that are subnormal: arithmetic on them is slow
 * enough on many CPUs to distort timings. */
long count_subnormals(const Mesh *mesh);

#endif
