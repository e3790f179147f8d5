/* verify_against_reference accepts a correct run and names the part, zone
 * and check of every kind of corruption a threading error could cause. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/deposit.h"
#include "kernels/chunk_timer.h"
#include "kernels/schedule.h"
#include "mesh/verify.h"
#include "tap.h"

#define SUBCYCLES 40

static Problem pb;
static char report[8192];
static MeshChecksum last_checksum;

static void run_serial_reference(void)
{
    reinitialize_parts(&pb);
    find_schedule("Serial Ref")->run(&pb, SUBCYCLES, NULL, NULL);
}

/* Verifies the current mesh as a checked schedule; the printed report lands in `report`. */
static long verify_now(void)
{
    VerifyExpectations expect = {SUBCYCLES, 0, NULL, pb.deposit.max_residue, pb.deposit.order_violations,
                                 pb.deposit.first_violation_count, 1};
    FILE *out = fmemopen(report, sizeof report, "w");
    long failures = verify_against_reference(&pb.mesh, &expect, "Test OMP", out, &last_checksum);
    fclose(out);
    return failures;
}

static Zone *zone_at(long p, long z)
{
    Zone *zone = pb.mesh.partArray[p]->firstZone;
    while (--z > 0)
        zone = zone->nextZone;
    return zone;
}

static void test_clean_run_passes(void)
{
    run_serial_reference();
    long failures = verify_now();
    ok(failures == 0, "a repeated serial run verifies against the recorded reference");
    ok(report[0] == '\0', "a passing verification prints nothing");
    MeshChecksum c = mesh_checksum(&pb.mesh);
    ok(fabs(c.total - SUBCYCLES) < 1e-9, "the deposited total equals the number of subcycles");
    ok(same_bits(last_checksum.total, c.total) && same_bits(last_checksum.sum, c.sum),
       "verification hands back the checksum it computed, so the report need not compute it again");
    ok(c.residue > 0.0 && c.residue <= pb.deposit.max_residue + 1e-6, "the residue stays within max_residue");
}

static void test_flipped_bit_in_first_zone(void)
{
    run_serial_reference();
    Zone *z = pb.mesh.partArray[3]->firstZone;
    z->value = nextafter(z->value, 0.0);
    long failures = verify_now();
    ok(failures >= 1, "one ulp off in part 3's first zone fails verification");
    ok(strstr(report, "Test OMP VERIFY FAILED: part 3 zone 1 first-zone value") != NULL,
       "the failure names the schedule, part 3 and zone 1");
    ok(strstr(report, "0x1.") != NULL, "expected and actual are also printed in %%a so the bits show");
}

static void test_changed_residue(void)
{
    run_serial_reference();
    pb.mesh.partArray[5]->residue *= 1.0 + 1e-15;
    verify_now();
    ok(strstr(report, "part 5 zone 0 residue vs Serial Ref") != NULL, "a changed residue of part 5 is reported");
}

static void test_zone_order(void)
{
    run_serial_reference();
    Zone *z4 = zone_at(2, 4), *z5 = zone_at(2, 5);
    double t = z4->value;
    z4->value = z5->value;
    z5->value = t;
    verify_now();
    ok(strstr(report, "part 2 zone 5 value exceeds previous zone's") != NULL,
       "swapped zone values 4 and 5 of part 2 break the non-increasing order check");
    ok(strstr(report, "first-zone value") == NULL, "the first-zone comparison alone would have missed it");

    run_serial_reference();
    zone_at(4, 3)->value = NAN;
    ok(verify_now() >= 1 && strstr(report, "part 4 zone") != NULL, "a NaN zone value is caught");
}

static void test_deep_zone_change(void)
{
    run_serial_reference();
    Zone *z = zone_at(7, 6);
    z->value = nextafter(z->value, 0.0);   /* one ulp, deep in the list: a lost tiny update */
    long failures = verify_now();
    ok(failures == 1 && strstr(report, "part 7 zone 1..10 zone values differ from Serial Ref") != NULL,
       "one ulp lost in zone 6 of part 7 is caught by the all-zone hash, and only by it");
    ok(strstr(report, "first-zone value") == NULL && strstr(report, "total deposit") == NULL,
       "the CLOMP 1.2 checks (first zone, conservation) would have passed it");
}

static void test_update_counts(void)
{
    run_serial_reference();
    pb.mesh.partArray[6]->update_count++;
    verify_now();
    ok(strstr(report, "part 6 zone 0 update_count: expected 41 actual 42") != NULL,
       "an extra update of part 6 shows in its update count");

    run_serial_reference();
    pb.mesh.partArray[0]->update_count = 2;
    verify_now();
    ok(strstr(report, "part 0 zone 0 update_count: expected 1 actual 2") != NULL,
       "part 0 updated twice since the last calc_deposit is reported");
}

static void test_calc_deposit_violation(void)
{
    run_serial_reference();
    pb.deposit.order_violations = 3;
    pb.deposit.first_violation_count = 2;
    verify_now();
    ok(strstr(report, "calc_deposit found part 0 updated 2 times") != NULL && strstr(report, "3 calls") != NULL,
       "reordering seen by calc_deposit fails verification with its count");
    pb.deposit.order_violations = 0;
}

static void test_conservation(void)
{
    run_serial_reference();
    Zone *last = pb.mesh.partArray[1]->lastZone;
    last->value -= 0.01;   /* keeps the order, loses deposit */
    verify_now();
    ok(strstr(report, "total deposit: expected 40") != NULL, "a lost deposit breaks conservation");
    ok(strstr(report, "VERIFY FAILED: 2 checks failed") != NULL,
       "the report ends with the failure count (zone hash and conservation)");

    run_serial_reference();
    for (long p = 0; p < pb.mesh.shape.numParts; p++)
        pb.mesh.partArray[p]->residue = -pb.mesh.partArray[p]->residue;
    verify_now();
    ok(strstr(report, "total residue: expected 0 ..") != NULL, "a negative total residue is out of bounds");
}

static void test_many_failures_are_summarised(void)
{
    run_serial_reference();
    for (long p = 0; p < pb.mesh.shape.numParts; p++)
        pb.mesh.partArray[p]->firstZone->value += 1e-9;
    long failures = verify_now();
    ok(failures >= pb.mesh.shape.numParts, "every corrupted part is counted (%ld failures)", failures);
    long lines = 0;
    for (const char *c = report; (c = strstr(c, "first-zone value")) != NULL; c++)
        lines++;
    ok(lines == 5, "only the first five of one kind are printed in full (%ld printed)", lines);
}

static void test_subnormals(void)
{
    run_serial_reference();
    ok(count_subnormals(&pb.mesh, 2) == 0, "a normal run has no subnormal values");
    pb.mesh.partArray[2]->lastZone->value = 1e-310;
    ok(count_subnormals(&pb.mesh, 2) == 1, "a subnormal zone value is counted");
}

/* Chunked runs are verified at every chunk boundary against Serial Ref's
 * state at the same point, and a failure says which chunk it was. */
static void test_checkpoints_of_chunks(void)
{
    const Schedule *serial = find_schedule("Serial Ref");
    long ends[2] = {SUBCYCLES / 2, SUBCYCLES};
    double seconds[2];
    ChunkTimer timer = {2, ends, seconds, 0.0, NULL, NULL, NULL};
    FILE *out;

    reinitialize_parts(&pb);
    reserve_reference_checkpoints(&pb.mesh, 2);
    serial->run(&pb, SUBCYCLES / 2, NULL, NULL);
    record_reference(&pb.mesh, 0);
    serial->run(&pb, SUBCYCLES / 2, NULL, NULL);
    record_reference(&pb.mesh, 1);

    reinitialize_parts(&pb);
    serial->run(&pb, SUBCYCLES, &timer, NULL);
    ok(seconds[0] >= 0.0 && seconds[1] >= 0.0, "a timed run fills in the time of each of its chunks");

    VerifyExpectations at_end = {SUBCYCLES, 1, "in chunk 2 of 2", pb.deposit.max_residue, 0, 0, 1};
    out = fmemopen(report, sizeof report, "w");
    ok(verify_against_reference(&pb.mesh, &at_end, "Test OMP", out, NULL) == 0,
       "the state after the whole run matches the checkpoint of the last chunk");
    fclose(out);

    VerifyExpectations too_early = {SUBCYCLES / 2, 0, "in chunk 1 of 2", pb.deposit.max_residue, 0, 0, 1};
    out = fmemopen(report, sizeof report, "w");
    ok(verify_against_reference(&pb.mesh, &too_early, "Test OMP", out, NULL) > 0,
       "the same state fails against the first chunk's checkpoint");
    fclose(out);
    ok(strstr(report, "check") != NULL && strstr(report, "failed in chunk 1 of 2") != NULL,
       "the failure count names the chunk: %s", strrchr(report, ':') ? strrchr(report, ':') : report);
}

int main(void)
{
    MeshShape shape = {12, 10, 32, 1, ZONE_LAYOUT_CLOMP12};
    build_mesh(&pb.mesh, &shape, 1, NULL, NULL);
    pb.numThreads = 1;
    calibrate_deposit(&pb);
    run_serial_reference();
    reserve_reference_checkpoints(&pb.mesh, 1);
    record_reference(&pb.mesh, 0);

    test_clean_run_passes();
    test_flipped_bit_in_first_zone();
    test_changed_residue();
    test_zone_order();
    test_deep_zone_change();
    test_update_counts();
    test_calc_deposit_violation();
    test_conservation();
    test_many_failures_are_summarised();
    test_subnormals();
    test_checkpoints_of_chunks();
    free_mesh(&pb.mesh);
    return done_testing();
}
