/* The text writer's offload lines (docs/offload.md). */
#include "text_report.h"

#include <math.h>

#include "../offload/device_info.h"
#include "figures.h"

void print_offload_device(FILE *out)
{
    const OffloadDeviceInfo *device = offload_device_info();
    if (device != NULL)
        fprintf(out, "   Offload device: %s; OMP_TARGET_OFFLOAD=mandatory (set by clomp, was %s)\n", device->text,
                device->policy_before);
}

void print_offload_launch(FILE *out, const Measurement *offload, const Measurement *device_bestcase)
{
    double launch = offload_launch_us(offload, device_bestcase, 1);
    const OffloadDeviceInfo *device = offload_device_info();
    if (isnan(launch))
        return;
    fprintf(out, "%13s   Launch: %.2f us per subcycle (versus Dev Bestcase %.2f us/Loop, one launch per chunk; "
                 "medians: %.2f): a launch, part 0's copy back and the wait%s\n",
            offload->schedule->name, launch, device_bestcase->runtime_us,
            offload_launch_us(offload, device_bestcase, 0),
            device != NULL && device->host_plugin ? " (host plugin: no accelerator)" : "");
}
