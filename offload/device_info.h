/* The opened offload device as the reports name it (docs/offload.md):
 * filled once by offload_open() (device.h) before anything is measured,
 * read by the writers. In a build without offload there is none. */
#ifndef CLOMP_OFFLOAD_DEVICE_INFO_H
#define CLOMP_OFFLOAD_DEVICE_INFO_H

typedef struct OffloadDeviceInfo {
    const char *text;            /* vendor and model, runtime and driver versions; the host plugin says it is no accelerator */
    int host_plugin;             /* 1: libomptarget's host plugin (the CPU) */
    const char *policy_before;   /* what OMP_TARGET_OFFLOAD was before clomp set it: "unset" or its text */
} OffloadDeviceInfo;

/* NULL in a build without offload or before offload_open(). */
const OffloadDeviceInfo *offload_device_info(void);

#endif
