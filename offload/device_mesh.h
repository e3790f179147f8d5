/* The mesh resident on the offload device for a whole run of Offload OMP
 * (docs/offload.md): CLOMP's own records, Part and Zone, copied once into
 * device memory (omp_target_alloc, omp_target_memcpy) with every pointer
 * (partArray, firstZone, nextZone) pointing into the device copy, so that
 * update_part() walks the same linked lists there. Explicit copies rather
 * than `requires unified_shared_memory`: they work on every device (the
 * host plugin and gcc's nvptx have no unified memory), and they keep the
 * mesh in the device's own memory, where a discrete GPU computes fastest. */
#ifndef CLOMP_OFFLOAD_DEVICE_MESH_H
#define CLOMP_OFFLOAD_DEVICE_MESH_H

#include "../mesh/mesh.h"

typedef struct DeviceMesh {
    int device;
    long numParts, zonesPerPart;
    Part **parts;         /* device: the partArray, parts[p] == &records[p] */
    Part *records;        /* device: numParts Part records */
    Zone *zones;          /* device: zonesPerPart zones per part, in list order */
    Part *host_records;   /* host staging copies of the two blocks above */
    Zone *host_zones;
    long part0_counted;   /* part 0's device update_count already seen by the host */
} DeviceMesh;

/* Copies the host mesh's current state (values, residues, update counts,
 * ratios) to `device`. Returns 0, or -1 when memory (host or device) runs
 * out. In a build without offload it always fails. */
int device_mesh_create(DeviceMesh *d, const Mesh *host, int device);

/* Copies every zone value, residue and update count back into the host mesh
 * (the same parts and zones, in list order): the host mesh then holds what
 * the device computed, for verification. */
void device_mesh_to_host(DeviceMesh *d, Mesh *host);

/* After an update on the device: part 0's residue and the updates it had
 * since the last call into the host's part 0, the two fields calc_deposit()
 * reads (a 72-byte copy). */
void device_mesh_fetch_part0(DeviceMesh *d, Part *host_part0);

void device_mesh_free(DeviceMesh *d);

#endif
