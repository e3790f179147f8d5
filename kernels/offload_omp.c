/* Offload OMP (offload builds only, docs/offload.md): CLOMP's subcycle with
 * the parts' update offloaded, `target teams distribute parallel for` over
 * the parts, each part's zone walk (update_part, the kernel every schedule
 * shares) inside. The mesh lives on the device for the whole run
 * (offload/device_mesh.h); calc_deposit() stays CLOMP's serial host code,
 * so each subcycle brings part 0's residue back (72 bytes) for the next
 * deposit. After every chunk, with the clock stopped, the device's mesh is
 * copied into the host's and verified bit for bit against Serial Ref. */
#ifdef CLOMP_OFFLOAD

/* update_part() compiled for the device too: its header first, inside
 * `declare target`, before anything else includes it. */
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
#include "cycle.h"
#include "deposit.h"
#include "fault.h"
#include "owned_check.h"
#include "schedule.h"

/* The device copy of the mesh this run computes on. */
static DeviceMesh device_mesh;

#ifdef CLOMP_FAULTS
/* The fault build's device fault (CLOMP_FAULT=device-zone): one zone of
 * one part off by its last bit, once, on the device, after its update. */
#pragma omp declare target
static void nudge_zone(Part *part, long zone)
{
    Zone *z = part->firstZone;
    for (long k = 0; k < zone && z->nextZone != NULL; k++)
        z = z->nextZone;
    union { double value; unsigned long long bits; } u = {z->value};
    u.bits ^= 1;
    z->value = u.value;
}
#pragma omp end declare target

static void update_on_device(Part **parts, long numParts, double deposit, long flopScale, int device, long subcycle)
{
    long zone = 0, fault_part = fault_device_part(subcycle, &zone);
#pragma omp target teams distribute parallel for device(device) is_device_ptr(parts) firstprivate(deposit, flopScale)
    for (long p = 0; p < numParts; p++) {
        update_part(parts[p], deposit, flopScale);
        if (p == fault_part)
            nudge_zone(parts[p], zone);
    }
}
#else
/* The timed kernel: the parts' update, one launch. */
static void update_on_device(Part **parts, long numParts, double deposit, long flopScale, int device, long subcycle)
{
    (void)subcycle;
#pragma omp target teams distribute parallel for device(device) is_device_ptr(parts) firstprivate(deposit, flopScale)
    for (long p = 0; p < numParts; p++)
        update_part(parts[p], deposit, flopScale);
}
#endif

#define OFFLOAD_SUBCYCLE(k)                                                                                  \
    {                                                                                                        \
        double deposit = CALC_DEPOSIT(pb, CLOMP_SUBCYCLE_INDEX(it, k));                                      \
        update_on_device(device_mesh.parts, device_mesh.numParts, deposit, pb->mesh.shape.flopScale,         \
                         device_mesh.device, CLOMP_SUBCYCLE_INDEX(it, k));                                   \
        device_mesh_fetch_part0(&device_mesh, pb->mesh.partArray[0]);                                        \
    }

CLOMP_MODULES(offload, (Problem *pb, long it), (pb, it), OFFLOAD_SUBCYCLE)

static void run(Problem *pb, long subcycles, ChunkTimer *timer, TeamObservation *seen)
{
    (void)seen;
    if (device_mesh_create(&device_mesh, &pb->mesh, offload_device()) != 0) {
        fprintf(stderr, "clomp: Offload OMP: out of memory for the mesh on offload device %d\n", offload_device());
        exit(3);
    }
#define ITERATION(it) offload_cycle(pb, it)
#define VERIFY(c)                                                                                            \
    (device_mesh_to_host(&device_mesh, &pb->mesh), verify_static_owners(timer, c, pb->mesh.shape.numParts,   \
                                                                        pb->numThreads))
    RUN_CHUNKED_ITERATIONS(timer, subcycles, ITERATION, VERIFY)
    device_mesh_to_host(&device_mesh, &pb->mesh);
    device_mesh_free(&device_mesh);
}

static const char *const pseudocode[] = {
    "------ Start Offload OMP Pseudocode ------",
    "/* The update offloaded; the mesh stays on the device for the whole run */",
    "deposit = calc_deposit ();   /* on the host, from part 0 as the device left it */",
    "#pragma omp target teams distribute parallel for is_device_ptr(partArray)",
    "for (pidx = 0; pidx lt numParts; pidx++)",
    "  update_part (partArray[pidx], deposit);",
    "copy part 0's residue and update count from the device",
    "------- End Offload OMP Pseudocode -------",
    NULL,
};

const Schedule schedule_offload_omp = {"Offload OMP", "offload", ROLE_CHECKED, 0, 1, pseudocode, run, NULL, 0, 1, 0, 0};

#else

/* ISO C forbids an empty translation unit. */
typedef int clomp_offload_build_only;

#endif
