#include "device_mesh.h"

#include <stdlib.h>
#include <string.h>

#ifdef CLOMP_OFFLOAD

#include <omp.h>

/* The device address of element i of a device array: computed on the host,
 * never dereferenced there (device pointers are plain addresses in the
 * flat address space of every OpenMP device runtime clomp builds for). */
static void *device_address(void *base, size_t offset)
{
    return (char *)base + offset;
}

int device_mesh_create(DeviceMesh *d, const Mesh *host, int device)
{
    memset(d, 0, sizeof *d);
    d->device = device;
    d->numParts = host->shape.numParts;
    d->zonesPerPart = host->shape.zonesPerPart;
    size_t parts = (size_t)d->numParts, zones = parts * (size_t)d->zonesPerPart;
    d->parts = omp_target_alloc(parts * sizeof(Part *), device);
    d->records = omp_target_alloc(parts * sizeof(Part), device);
    d->zones = omp_target_alloc(zones * sizeof(Zone), device);
    d->host_records = malloc(parts * sizeof(Part));
    d->host_zones = malloc(zones * sizeof(Zone));
    Part **host_parts = malloc(parts * sizeof(Part *));
    if (d->parts == NULL || d->records == NULL || d->zones == NULL || d->host_records == NULL || d->host_zones == NULL ||
        host_parts == NULL) {
        free(host_parts);
        device_mesh_free(d);
        return -1;
    }
    for (size_t p = 0; p < parts; p++) {
        const Part *part = host->partArray[p];
        Part *copy = &d->host_records[p];
        *copy = *part;
        size_t first = p * (size_t)d->zonesPerPart, z = 0;
        for (const Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone, z++) {
            Zone *zcopy = &d->host_zones[first + z];
            *zcopy = *zone;
            zcopy->nextZone = zone->nextZone != NULL ? device_address(d->zones, (first + z + 1) * sizeof(Zone)) : NULL;
        }
        copy->firstZone = device_address(d->zones, first * sizeof(Zone));
        copy->lastZone = device_address(d->zones, (first + (size_t)d->zonesPerPart - 1) * sizeof(Zone));
        host_parts[p] = device_address(d->records, p * sizeof(Part));
    }
    int host_device = omp_get_initial_device();
    int failed = omp_target_memcpy(d->parts, host_parts, parts * sizeof(Part *), 0, 0, device, host_device) != 0 ||
                 omp_target_memcpy(d->records, d->host_records, parts * sizeof(Part), 0, 0, device, host_device) != 0 ||
                 omp_target_memcpy(d->zones, d->host_zones, zones * sizeof(Zone), 0, 0, device, host_device) != 0;
    free(host_parts);
    if (failed) {
        device_mesh_free(d);
        return -1;
    }
    d->part0_counted = host->partArray[0]->update_count;
    return 0;
}

void device_mesh_to_host(DeviceMesh *d, Mesh *host)
{
    size_t parts = (size_t)d->numParts, zones = parts * (size_t)d->zonesPerPart;
    int host_device = omp_get_initial_device();
    omp_target_memcpy(d->host_records, d->records, parts * sizeof(Part), 0, 0, host_device, d->device);
    omp_target_memcpy(d->host_zones, d->zones, zones * sizeof(Zone), 0, 0, host_device, d->device);
    for (size_t p = 0; p < parts; p++) {
        Part *part = host->partArray[p];
        part->residue = d->host_records[p].residue;
        if (p > 0)   /* part 0's count is calc_deposit()'s: device_mesh_fetch_part0() keeps it */
            part->update_count = d->host_records[p].update_count;
        size_t z = p * (size_t)d->zonesPerPart;
        for (Zone *zone = part->firstZone; zone != NULL; zone = zone->nextZone)
            zone->value = d->host_zones[z++].value;
    }
}

void device_mesh_fetch_part0(DeviceMesh *d, Part *host_part0)
{
    Part part0;
    omp_target_memcpy(&part0, d->records, sizeof part0, 0, 0, omp_get_initial_device(), d->device);
    host_part0->residue = part0.residue;
    host_part0->update_count = part0.update_count - d->part0_counted;
    d->part0_counted = part0.update_count;
}

void device_mesh_free(DeviceMesh *d)
{
    if (d->parts != NULL)
        omp_target_free(d->parts, d->device);
    if (d->records != NULL)
        omp_target_free(d->records, d->device);
    if (d->zones != NULL)
        omp_target_free(d->zones, d->device);
    free(d->host_records);
    free(d->host_zones);
    memset(d, 0, sizeof *d);
}

#else

int device_mesh_create(DeviceMesh *d, const Mesh *host, int device)
{
    (void)host;
    memset(d, 0, sizeof *d);
    d->device = device;
    return -1;
}

void device_mesh_to_host(DeviceMesh *d, Mesh *host)
{
    (void)d;
    (void)host;
}

void device_mesh_fetch_part0(DeviceMesh *d, Part *host_part0)
{
    (void)d;
    (void)host_part0;
}

void device_mesh_free(DeviceMesh *d)
{
    memset(d, 0, sizeof *d);
}

#endif
