#include "verify.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Failures of one kind printed in full; the rest are only counted. */
#define DETAILS_PER_CHECK 5

int reserve_reference_checkpoints(Mesh *mesh, long count)
{
    size_t n = (size_t)count * (size_t)mesh->shape.numParts;
    free(mesh->checkpoint_first_value);
    free(mesh->checkpoint_residue);
    free(mesh->checkpoint_zone_hash);
    mesh->checkpoint_first_value = calloc(n, sizeof *mesh->checkpoint_first_value);
    mesh->checkpoint_residue = calloc(n, sizeof *mesh->checkpoint_residue);
    mesh->checkpoint_zone_hash = calloc(n, sizeof *mesh->checkpoint_zone_hash);
    mesh->checkpoint_count = count;
    if (mesh->checkpoint_first_value == NULL || mesh->checkpoint_residue == NULL || mesh->checkpoint_zone_hash == NULL) {
        mesh->checkpoint_count = 0;
        return -1;
    }
    return 0;
}

void record_reference_part(Mesh *mesh, long checkpoint, long p, unsigned long long hash)
{
    size_t at = (size_t)checkpoint * (size_t)mesh->shape.numParts + (size_t)p;
    const Part *part = mesh->partArray[p];
    mesh->checkpoint_first_value[at] = part->firstZone->value;
    mesh->checkpoint_residue[at] = part->residue;
    mesh->checkpoint_zone_hash[at] = hash;
}

void record_reference(Mesh *mesh, long checkpoint)
{
    for (long p = 0; p < mesh->shape.numParts; p++)
        record_reference_part(mesh, checkpoint, p, zone_value_hash(mesh->partArray[p]));
}

MeshChecksum mesh_checksum(const Mesh *mesh)
{
    MeshChecksum c = {0.0, 0.0, 0.0};
    for (long p = 0; p < mesh->shape.numParts; p++) {
        const Part *part = mesh->partArray[p];
        for (const Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone)
            c.sum += zone->value;
        c.residue += part->residue;
    }
    c.total = c.sum + c.residue;
    return c;
}

double conservation_tolerance(long subcycles)
{
    double s = (double)subcycles;
    return 1e-5 + s * s * DBL_EPSILON;
}

typedef struct FailureLog {
    FILE *out;
    const char *schedule;
    long count;
    long shown[7];
} FailureLog;

enum { CHECK_FIRST_VALUE, CHECK_RESIDUE, CHECK_ORDER, CHECK_COUNT, CHECK_TOTAL, CHECK_DEPOSIT, CHECK_ZONES };

/* Only the first few failures of each kind are printed in full. */
static int want_details(FailureLog *log, int check)
{
    log->count++;
    return log->shown[check]++ < DETAILS_PER_CHECK;
}

static void report_value(FailureLog *log, int check, long part, long zone, const char *what,
                         double expected, double actual)
{
    if (want_details(log, check))
        fprintf(log->out,
                "%13s VERIFY FAILED: part %ld zone %ld %s: expected %.17g (%a) actual %.17g (%a)\n",
                log->schedule, part, zone, what, expected, expected, actual, actual);
}

/* One walk along a part's list (verification runs after every chunk, so
 * a mesh larger than the caches must be read once, not three times): the
 * hash of its values, the first zone whose value exceeds its predecessor's
 * (written to also reject NaN), and the values added to the running
 * checksum `sum` in mesh_checksum()'s order, so the sums are bit-identical. */
typedef struct PartWalk {
    unsigned long long hash;
    const Zone *rising;   /* NULL when values never rise */
} PartWalk;

static PartWalk walk_part(const Part *part, double *sum)
{
    /* FNV-1a over 64-bit words: cheap, and sensitive to order and to every bit. */
    PartWalk w = {0xcbf29ce484222325ULL, NULL};
    for (const Zone *z = part->firstZone; z != NULL; z = z->nextZone) {
        unsigned long long bits;
        memcpy(&bits, &z->value, sizeof bits);
        w.hash = (w.hash ^ bits) * 0x100000001b3ULL;
        *sum += z->value;
        if (w.rising == NULL && z->nextZone != NULL && !(z->nextZone->value <= z->value))
            w.rising = z;
    }
    return w;
}

unsigned long long zone_value_hash(const Part *part)
{
    double unused = 0.0;
    return walk_part(part, &unused).hash;
}

/* What one part shows against the expectations, found without printing. */
typedef struct PartFindings {
    PartWalk walk;
    size_t at;                 /* its checkpoint entry, when compared with the reference */
    int zones_differ, first_differs, residue_differs, count_wrong;
    long expected_count;
} PartFindings;

static PartFindings examine_part(const Mesh *mesh, const Part *part, const VerifyExpectations *expect, double *sum)
{
    PartFindings f;
    memset(&f, 0, sizeof f);
    f.walk = walk_part(part, sum);
    if (expect->compare_to_reference) {
        f.at = (size_t)expect->checkpoint * (size_t)mesh->shape.numParts + (size_t)part->partId;
        /* Beyond CLOMP 1.2, which compares only the first zone: a lost or
         * reordered update deeper in the list can leave the first zone and
         * the residue intact and move the total by less than its tolerance. */
        f.zones_differ = f.walk.hash != mesh->checkpoint_zone_hash[f.at];
        f.first_differs = part->firstZone->value != mesh->checkpoint_first_value[f.at];
        f.residue_differs = part->residue != mesh->checkpoint_residue[f.at];
    }
    /* reinitialize_parts() updates every part once; part 0's count is reset
     * by each calc_deposit(). */
    f.expected_count = part->partId == 0 ? 1 : expect->subcycles + 1;
    f.count_wrong = part->update_count != f.expected_count;
    return f;
}

static void check_part(FailureLog *log, const Mesh *mesh, const Part *part, const VerifyExpectations *expect,
                       MeshChecksum *c)
{
    PartFindings f = examine_part(mesh, part, expect, &c->sum);
    c->residue += part->residue;
    if (f.zones_differ && want_details(log, CHECK_ZONES))
        fprintf(log->out,
                "%13s VERIFY FAILED: part %ld zone 1..%ld zone values differ from Serial Ref "
                "(hash of all zone values: expected %016llx actual %016llx)\n",
                log->schedule, part->partId, part->zoneCount, mesh->checkpoint_zone_hash[f.at], f.walk.hash);
    if (f.first_differs)
        report_value(log, CHECK_FIRST_VALUE, part->partId, 1, "first-zone value vs Serial Ref",
                     mesh->checkpoint_first_value[f.at], part->firstZone->value);
    if (f.residue_differs)
        report_value(log, CHECK_RESIDUE, part->partId, 0, "residue vs Serial Ref", mesh->checkpoint_residue[f.at],
                     part->residue);
    /* Later zones receive what earlier ones left, so values never rise
     * along the list. */
    if (f.walk.rising != NULL)
        report_value(log, CHECK_ORDER, part->partId, f.walk.rising->nextZone->zoneId,
                     "value exceeds previous zone's (order check)", f.walk.rising->value,
                     f.walk.rising->nextZone->value);
    if (f.count_wrong && want_details(log, CHECK_COUNT))
        fprintf(log->out, "%13s VERIFY FAILED: part %ld zone 0 update_count: expected %ld actual %ld\n",
                log->schedule, part->partId, f.expected_count, part->update_count);
}

int part_verifies(const Mesh *mesh, long p, const VerifyExpectations *expect, double *value_sum, double *residue,
                  unsigned long long *hash)
{
    const Part *part = mesh->partArray[p];
    *value_sum = 0.0;
    PartFindings f = examine_part(mesh, part, expect, value_sum);
    *residue = part->residue;
    if (hash != NULL)
        *hash = f.walk.hash;
    return !(f.zones_differ || f.first_differs || f.residue_differs || f.walk.rising != NULL || f.count_wrong);
}

static int total_conserved(const VerifyExpectations *expect, double total)
{
    return fabs(total - (double)expect->subcycles) <= conservation_tolerance(expect->subcycles);
}

static int residue_in_bounds(const VerifyExpectations *expect, double residue)
{
    return residue >= 0.0 && residue <= expect->max_residue + 1e-6;
}

int mesh_totals_pass(const VerifyExpectations *expect, double value_sum, double residue_sum)
{
    return expect->order_violations == 0 && total_conserved(expect, value_sum + residue_sum) &&
           residue_in_bounds(expect, residue_sum);
}

long verify_against_reference(const Mesh *mesh, const VerifyExpectations *expect,
                              const char *schedule, FILE *out, MeshChecksum *checksum)
{
    FailureLog log = {out, schedule, 0, {0}};

    if (expect->order_violations != 0 && want_details(&log, CHECK_DEPOSIT))
        fprintf(out,
                "%13s VERIFY FAILED: calc_deposit found part 0 updated %ld times since the previous call "
                "(illegal reordering), %ld calls affected\n",
                schedule, expect->first_violation_count, expect->order_violations);

    MeshChecksum c = {0.0, 0.0, 0.0};
    for (long p = 0; p < mesh->shape.numParts; p++)
        check_part(&log, mesh, mesh->partArray[p], expect, &c);
    c.total = c.sum + c.residue;
    if (checksum != NULL)
        *checksum = c;
    if (!total_conserved(expect, c.total) && want_details(&log, CHECK_TOTAL))
        fprintf(out, "%13s VERIFY FAILED: part all zone all total deposit: expected %ld +- %.3g actual %.17g (%a)\n",
                schedule, expect->subcycles, conservation_tolerance(expect->subcycles), c.total, c.total);
    if (!residue_in_bounds(expect, c.residue) && want_details(&log, CHECK_TOTAL))
        fprintf(out, "%13s VERIFY FAILED: part all zone 0 total residue: expected 0 .. %.17g actual %.17g (%a)\n",
                schedule, expect->max_residue + 1e-6, c.residue, c.residue);

    if (log.count > 0)
        fprintf(out, "%13s VERIFY FAILED: %ld check%s failed%s%s\n", schedule, log.count,
                log.count == 1 ? "" : "s", expect->where != NULL ? " " : "", expect->where != NULL ? expect->where : "");
    return log.count;
}

long count_subnormals(const Mesh *mesh, int threads)
{
    long n = 0;
    /* A count, exact in any order: the team reads each part where it lies. */
#pragma omp parallel for schedule(static) reduction(+ : n) num_threads(threads > 0 ? threads : 1)
    for (long p = 0; p < mesh->shape.numParts; p++) {
        const Part *part = mesh->partArray[p];
        for (const Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone)
            n += fpclassify(zone->value) == FP_SUBNORMAL;
        n += fpclassify(part->residue) == FP_SUBNORMAL;
    }
    return n;
}
