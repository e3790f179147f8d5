#include "offload_figures.h"

#include <math.h>
#include <string.h>

double offload_launch_us(const Measurement *offload, const Measurement *device_bestcase, int runtime)
{
    if (offload == NULL || device_bestcase == NULL || strcmp(offload->schedule->key, "offload") != 0 ||
        offload->rounds_done == 0 || device_bestcase->rounds_done == 0)
        return NAN;
    return runtime ? offload->runtime_us - device_bestcase->runtime_us : offload->us - device_bestcase->us;
}

void print_offload_launch(FILE *out, const Measurement *offload, const Measurement *device_bestcase)
{
    double launch = offload_launch_us(offload, device_bestcase, 1);
    if (isnan(launch))
        return;
    fprintf(out, "%13s   Launch: %.2f us per subcycle (versus Dev Bestcase %.2f us/Loop, one launch per chunk; "
                 "medians: %.2f): a launch, part 0's copy back and the wait%s\n",
            offload->schedule->name, launch, device_bestcase->runtime_us,
            offload_launch_us(offload, device_bestcase, 0),
            offload_host_plugin() ? " (host plugin: no accelerator)" : "");
}
