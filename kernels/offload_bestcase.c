/* Dev Bestcase (offload builds only, docs/offload.md): the device's own
 * bestcase. One launch per chunk, `target teams distribute parallel for`
 * over the parts, each part updated once per subcycle of the chunk with
 * Bestcase OMP's fixed deposit, so no launch, no transfer and no
 * synchronisation per subcycle; then the chunk's serial calc_deposit()
 * calls on the host are timed and added, as Bestcase OMP adds them. Offload
 * OMP minus this is what launching and synchronising each subcycle costs.
 * Its results are wrong by design and not checked. */
#ifdef CLOMP_OFFLOAD

#include "../mesh/mesh.h"
#pragma omp declare target
#include "../offload/device_product.h"
#include "update_part.h"
#pragma omp end declare target

#include <stdio.h>
#include <stdlib.h>

#include "../offload/device.h"
#include "../offload/device_mesh.h"
#include "chunk_timer.h"
#include "deposit.h"
#include "schedule.h"

/* The chunk's subcycles in one launch: each part's updates in order. */
static void update_chunk_on_device(const DeviceMesh *d, long subcycles, double deposit, long flopScale)
{
    Part **parts = d->parts;
    long numParts = d->numParts;
#pragma omp target teams distribute parallel for device(d->device) is_device_ptr(parts) firstprivate(deposit, flopScale, subcycles)
    for (long p = 0; p < numParts; p++)
        for (long s = 0; s < subcycles; s++)
            update_part(parts[p], deposit, flopScale);
}

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)seen;
    DeviceMesh device_mesh;
    if (device_mesh_create(&device_mesh, &pb->mesh, offload_device()) != 0) {
        fprintf(stderr, "clomp: Dev Bestcase: out of memory for the mesh on offload device %d\n", offload_device());
        exit(3);
    }
    double deposit = (1.0 + pb->deposit.max_residue) / (double)pb->mesh.shape.numParts;
    long done = 0;
    for (long c = 0; c < chunk_count(timer); c++) {
        long end = chunk_end_iteration(timer, c, subcycles) * SUBCYCLES_PER_ITERATION;
        chunk_timer_start(timer);
        update_chunk_on_device(&device_mesh, end - done, deposit, pb->mesh.shape.flopScale);
        chunk_timer_stop(timer, c);
        double t0 = now_seconds();
        run_fooled_calc_deposits(pb, end - done);
        if (timer != NULL)
            timer->seconds[c] += now_seconds() - t0;
        done = end;
    }
    /* Untimed: the host's mesh gets what the device computed (the unit
     * tests check it against a plain bestcase). */
    device_mesh_to_host(&device_mesh, &pb->mesh);
    device_mesh_free(&device_mesh);
}

static const char *const pseudocode[] = {
    "------ Start Dev Bestcase Pseudocode ------",
    "/* The device's ideal: one launch per chunk, no synchronisation per subcycle */",
    "#pragma omp target teams distribute parallel for is_device_ptr(partArray)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  for (subcycle = 0; subcycle lt the chunk's subcycles; subcycle++)",
    "    update_part (partArray[pidx], (1 + max_residue)/numParts);",
    "/* then the chunk's serial calc_deposit () calls on the host */",
    "------- End Dev Bestcase Pseudocode -------",
    NULL,
};

const Schedule schedule_offload_bestcase = {"Dev Bestcase", "offload_bestcase", ROLE_BESTCASE, 0, 1, pseudocode, run,
                                            NULL, 0, 1, 0, 0};

#else

/* ISO C forbids an empty translation unit. */
typedef int clomp_offload_bestcase_build_only;

#endif
