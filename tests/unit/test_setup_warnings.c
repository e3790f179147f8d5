/* The set-up warning about part residues that underflow speaks of the
 * residues of the set-up update, not of whatever later sweeps left in the
 * mesh: on the users' inputs it stays silent however the mesh is swept
 * before it is read (the trial planning's timing sweeps with a zero deposit,
 * which leaves every residue 0), and it counts exactly the parts whose
 * set-up residue is 0 or subnormal, as the plain-array oracle finds them. */
#include <math.h>
#include <string.h>

#include "kernels/deposit.h"
#include "measure/warnings.h"
#include "oracle/oracle.h"
#include "tap.h"

static void make_problem(Problem *pb, long P, long Z, long F)
{
    MeshShape shape = {P, Z, 32, F, ZONE_LAYOUT_CLOMP12};
    build_mesh(&pb->mesh, &shape, 1, NULL, NULL);
    pb->numThreads = 1;
    pb->nestedOuter = pb->nestedInner = 1;
}

static long oracle_vanished(const Oracle *o)
{
    long n = 0;
    for (long p = 0; p < o->P; p++)
        n += o->residue[p] == 0.0 || fpclassify(o->residue[p]) == FP_SUBNORMAL;
    return n;
}

static int mentions_underflow(const WarningList *w)
{
    for (size_t i = 0; i < w->count; i++)
        if (strstr(w->item[i].text, "underflow") != NULL)
            return 1;
    return 0;
}

/* A users' input (zoneSize does not change the arithmetic: 32 here). */
static void test_input_is_silent(const char *name, long P, long Z, long F)
{
    Problem pb = {0};
    Oracle o;
    make_problem(&pb, P, Z, F);
    oracle_init(&o, P, Z, F);
    calibrate_deposit(&pb);
    /* What the set-up does between calibrate_deposit and the warnings. */
    sweep_parts_serially(&pb);
    sweep_parts_serially(&pb);
    reinitialize_parts(&pb);

    WarningList w = {0};
    mesh_setup_warnings(&pb, &w);
    ok(oracle_vanished(&o) == 0, "%s (%ldx%ld flopScale %ld): the oracle finds no set-up residue that underflows",
       name, P, Z, F);
    ok(!mentions_underflow(&w), "%s: no underflow warning after the mesh was swept and reset", name);
    oracle_free(&o);
    free_mesh(&pb.mesh);
}

/* Parts given ratios whose set-up residue is 0 (ratio 1) or subnormal
 * (2^-6 halved by 2^10 over 103 zones: 2^-1036) are counted, the rest not. */
static void test_vanishing_residues_are_counted(void)
{
    const long P = 64, Z = 103;
    Problem pb = {0};
    make_problem(&pb, P, Z, 1);
    pb.mesh.partArray[P - 1]->deposit_ratio = 1.0;
    pb.mesh.partArray[P - 2]->deposit_ratio = 1.0 - ldexp(1.0, -10);
    calibrate_deposit(&pb);
    ok(pb.mesh.partArray[P - 1]->residue == 0.0 && fpclassify(pb.mesh.partArray[P - 2]->residue) == FP_SUBNORMAL,
       "the two altered parts' set-up residues are 0 and subnormal");
    sweep_parts_serially(&pb);
    reinitialize_parts(&pb);
    WarningList w = {0};
    mesh_setup_warnings(&pb, &w);
    ok(w.count == 1 && strstr(w.item[0].text, "2 part residues underflow in set-up") != NULL,
       "after sweeps and a reset, the warning counts the 2 parts whose set-up residue vanished: '%s'",
       w.count > 0 ? w.item[0].text : "(none)");
    free_mesh(&pb.mesh);
}

int main(void)
{
    test_input_is_silent("target input", 64, 100, 1);
    test_input_is_silent("mem-bound input", 64, 10000, 1);
    test_input_is_silent("cache friendly input", 64, 1, 100);
    test_input_is_silent("cache / OpenMP friendly input", 64, 1, 1000);
    test_input_is_silent("CLOMP 1.2 target input", 16, 400, 1);
    test_vanishing_residues_are_counted();
    return done_testing();
}
