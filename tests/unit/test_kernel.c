/* update_part, the set-up statistics and calc_deposit agree bit for bit with
 * the plain-array oracle, and calc_deposit catches reordered updates; the
 * Parallel For probe's delay stores its result on every call and calibrates
 * to a positive length. */
#include "kernels/delay.h"
#include "kernels/deposit.h"
#include "kernels/update_part.h"
#include "oracle/oracle.h"
#include "tap.h"

static void make_problem(Problem *pb, long P, long Z, long F)
{
    MeshShape shape = {P, Z, 32, F, ZONE_LAYOUT_CLOMP12};
    build_mesh(&pb->mesh, &shape, 1, NULL, NULL);
    pb->numThreads = 1;
    pb->nestedOuter = pb->nestedInner = 1;
}

static int mesh_matches_oracle(const Problem *pb, const Oracle *o)
{
    for (long p = 0; p < o->P; p++) {
        const Part *part = pb->mesh.partArray[p];
        long z = 0;
        for (const Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone, z++)
            if (!same_bits(zone->value, o->values[p * o->Z + z]))
                return 0;
        if (z != o->Z || !same_bits(part->residue, o->residue[p]) || part->update_count != o->updates[p])
            return 0;
    }
    return 1;
}

static void test_setup_and_update(long P, long Z, long F)
{
    Problem pb = {0};
    Oracle o;
    make_problem(&pb, P, Z, F);
    oracle_init(&o, P, Z, F);

    calibrate_deposit(&pb);
    ok(mesh_matches_oracle(&pb, &o), "%ldx%ld flopScale %ld: set-up update leaves every zone as the oracle's", P, Z, F);
    ok(same_bits(pb.deposit.percent_residue, o.percent_residue) && same_bits(pb.deposit.max_residue, o.max_residue) &&
           same_bits(pb.deposit.residue_ratio_part0, o.residue_ratio_part0),
       "%ldx%ld flopScale %ld: percent residue, max residue and part-0 ratio match the oracle", P, Z, F);
    ok(same_bits(pb.deposit.error_bound, o.error_bound) && same_bits(pb.deposit.tight_error_bound, o.tight_error_bound),
       "%ldx%ld flopScale %ld: max and tight error bounds match the oracle", P, Z, F);
    ok(pb.deposit.percent_residue > 0.0 && pb.deposit.percent_residue < 1.0,
       "%ldx%ld flopScale %ld: the residue after one update is a fraction of the deposit", P, Z, F);

    for (long p = 0; p < P; p++)
        update_part(pb.mesh.partArray[p], 0.37, F);
    for (long p = 0; p < P; p++)
        oracle_deposit_into_part(&o, p, 0.37);
    ok(mesh_matches_oracle(&pb, &o), "%ldx%ld flopScale %ld: a further update_part of 0.37 matches the oracle", P, Z, F);

    reinitialize_parts(&pb);
    oracle_reset(&o);
    ok(mesh_matches_oracle(&pb, &o), "%ldx%ld flopScale %ld: reinitialize_parts zeroes values and sets update counts to 1", P, Z, F);
    oracle_free(&o);
    free_mesh(&pb.mesh);
}

static void test_calc_deposit(void)
{
    Problem pb = {0};
    Oracle o;
    make_problem(&pb, 6, 20, 1);
    oracle_init(&o, 6, 20, 1);
    calibrate_deposit(&pb);
    reinitialize_parts(&pb);

    double expected = (1.0 + 0.0 * o.residue_ratio_part0) * o.partRatio;
    ok(same_bits(calc_deposit(&pb), expected), "after a reset, calc_deposit returns 1/numParts");
    ok(pb.deposit.order_violations == 0, "a calc_deposit after exactly one update of part 0 is legal");
    ok(pb.mesh.partArray[0]->update_count == 0, "calc_deposit resets part 0's update count");

    update_part(pb.mesh.partArray[0], 0.5, 1);
    oracle_deposit_into_part(&o, 0, 0.5);
    expected = (1.0 + o.residue[0] * o.residue_ratio_part0) * o.partRatio;
    ok(same_bits(calc_deposit(&pb), expected), "calc_deposit carries part 0's residue scaled to all parts");

    calc_deposit(&pb);
    ok(pb.deposit.order_violations == 1 && pb.deposit.first_violation_count == 0,
       "a second calc_deposit without an update of part 0 is recorded as a violation");
    update_part(pb.mesh.partArray[0], 0.5, 1);
    update_part(pb.mesh.partArray[0], 0.5, 1);
    calc_deposit(&pb);
    ok(pb.deposit.order_violations == 2 && pb.deposit.first_violation_count == 0,
       "a double update of part 0 is a violation too; the first one seen is kept");

    run_fooled_calc_deposits(&pb, 100);
    ok(pb.deposit.order_violations == 2, "timing calc_deposit alone satisfies its check on every call");
    oracle_free(&o);
    free_mesh(&pb.mesh);
}

static long calls_counted;

/* EPCC's delay, counted: which function the calibration calls. */
static float counted_delay(int length)
{
    calls_counted++;
    return epcc_delay(length);
}

/* The delay's result is stored on every call, whatever its value: the
 * store must not hide behind a guard the compiler may prove false (EPCC's
 * `if (a < 0)` on a sum of non-negative numbers). No timing is asserted:
 * the calibrated time is printed by clomp (Parallel For's Delay line) and
 * compared with EPCC's by bench/constructs.sh. Which delay chains its calls
 * is read from the machine code (tests/delay_code.t): x 0 hides it here. */

static void test_delay(void)
{
    clomp_delay(0);
    ok(clomp_delay(100) == 4950.0f && clomp_delay_result() == 4950.0f,
       "delay(100) returns and stores 0 + 1 + ... + 99 = 4950 (a non-negative sum is stored too)");
    ok(clomp_delay(3) == 3.0f && clomp_delay_result() == 3.0f,
       "delay(3) right after it stores 3: every call stores, chained to the previous result only through x 0");
    ok(clomp_delay(0) == 0.0f && clomp_delay_result() == 0.0f, "delay(0) stores 0");
    float seen[4] = {-1.0f, -1.0f, -1.0f, -1.0f};
#pragma omp parallel for num_threads(4) schedule(static, 1)
    for (int t = 0; t < 4; t++) {
        clomp_delay(10 * (t + 1));
        seen[t] = clomp_delay_result();
    }
    ok(seen[0] == 45.0f && seen[1] == 190.0f && seen[2] == 435.0f && seen[3] == 780.0f,
       "each thread stores into its own sink (%g %g %g %g; no line shared in the probe's parallel for)",
       (double)seen[0], (double)seen[1], (double)seen[2], (double)seen[3]);
    DelayCalibration d = calibrate_delay(clomp_delay, CLOMP_DELAY_TARGET_US);
    ok(d.length > 0 && d.us > 0.0 && d.target_us == CLOMP_DELAY_TARGET_US,
       "the delay calibrates to a positive length for the stated %.3f us (%d additions, %.3f us)", d.target_us,
       d.length, d.us);

    clomp_delay(100);
    ok(epcc_delay(3) == 3.0f && clomp_delay_result() == 3.0f && epcc_delay(100) == 4950.0f &&
           clomp_delay_result() == 4950.0f,
       "EPCC's delay returns and stores the same sums (3, 4950)");
    calls_counted = 0;
    DelayCalibration e = calibrate_delay(counted_delay, CLOMP_DELAY_TARGET_US);
    ok(calls_counted >= 3000 && e.length > 0 && e.us >= CLOMP_DELAY_TARGET_US,
       "the calibration times the delay it is given (%ld calls of it; %d additions, %.3f us)", calls_counted,
       e.length, e.us);
    calls_counted = 0;
    DelayCalibration g = time_given_delay(counted_delay, 37);
    ok(g.length == 37 && g.given && g.target_us == 0.0 && g.us > 0.0 && calls_counted >= 3000,
       "a length given is kept (37 additions, no time asked) and only timed, the same way (%ld calls; %.3f us)",
       calls_counted, g.us);
}

int main(void)
{
    test_delay();
    test_setup_and_update(64, 100, 1);
    test_setup_and_update(7, 13, 3);
    test_setup_and_update(16, 2, 1);
    test_setup_and_update(64, 1, 100);
    test_setup_and_update(64, 1, 1);
    test_setup_and_update(1, 1, 1);
    test_calc_deposit();
    return done_testing();
}
