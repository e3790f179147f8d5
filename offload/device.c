/* The offload device (device.h). Only an offload build (-DCLOMP_OFFLOAD)
 * has target regions; every other build compiles the inert versions. */
#include "device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli/exit_status.h"

#ifdef CLOMP_OFFLOAD

#include <dlfcn.h>
#include <omp.h>
#include <strings.h>
#include <unistd.h>

/* The variable clomp sets, and where it keeps what the user had. */
#define POLICY_VARIABLE "OMP_TARGET_OFFLOAD"
#define PREVIOUS_VARIABLE "CLOMP_OFFLOAD_PREVIOUS_POLICY"

static int device_number = -1;
static char device_text[512];
static OffloadDeviceInfo device_info;

int offload_built(void)
{
    return 1;
}

/* Before main; glibc passes the program's arguments to its constructors. */
__attribute__((constructor)) static void force_mandatory(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)envp;
    const char *policy = getenv(POLICY_VARIABLE);
    if (policy != NULL && strcasecmp(policy, "mandatory") == 0)
        return;
    if (getenv(PREVIOUS_VARIABLE) != NULL) {   /* executed again, yet not mandatory: never loop */
        fprintf(stderr, "clomp: could not set %s=mandatory for the offload measurements\n", POLICY_VARIABLE);
        exit(EXIT_RESOURCE);
    }
    if (setenv(PREVIOUS_VARIABLE, policy != NULL ? policy : "unset", 1) != 0 ||
        setenv(POLICY_VARIABLE, "mandatory", 1) != 0) {
        fprintf(stderr, "clomp: could not set %s=mandatory: out of memory\n", POLICY_VARIABLE);
        exit(EXIT_RESOURCE);
    }
    execv("/proc/self/exe", argv);
    fprintf(stderr, "clomp: could not execute itself again with %s=mandatory (/proc/self/exe)\n", POLICY_VARIABLE);
    exit(EXIT_RESOURCE);
}

static const char *previous_policy(void)
{
    const char *previous = getenv(PREVIOUS_VARIABLE);
    return previous != NULL ? previous : getenv(POLICY_VARIABLE);
}


#if defined(__clang__)
#define RUNTIME_TEXT "libomptarget (LLVM, built by Clang " __clang_version__ ")"
#else
#define RUNTIME_TEXT "libgomp (GCC " __VERSION__ ")"
#endif

#ifdef CLOMP_OFFLOAD_NVPTX
/* The CUDA driver's own words for the GPU: loaded at run time, so that the
 * binary builds and starts without it. libgomp's nvptx plugin numbers the
 * CUDA devices in the driver's order, so OpenMP device n is CUDA ordinal n. */
static void describe_cuda_device(int ordinal, char *text, size_t size)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda == NULL) {
        snprintf(text, size, "NVIDIA GPU %d (CUDA driver library not loadable: model unknown); %s", ordinal, RUNTIME_TEXT);
        return;
    }
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(cuda, "cuInit");
    int (*driver)(int *) = (int (*)(int *))dlsym(cuda, "cuDriverGetVersion");
    int (*get)(int *, int) = (int (*)(int *, int))dlsym(cuda, "cuDeviceGet");
    int (*name)(char *, int, int) = (int (*)(char *, int, int))dlsym(cuda, "cuDeviceGetName");
    int (*attribute)(int *, int, int) = (int (*)(int *, int, int))dlsym(cuda, "cuDeviceGetAttribute");
    char model[256] = "model unknown";
    int version = 0, handle = 0, major = 0, minor = 0;
    if (init != NULL && init(0) == 0 && get != NULL && get(&handle, ordinal) == 0) {
        if (name != NULL)
            name(model, (int)sizeof model, handle);
        if (attribute != NULL) {
            attribute(&major, 75, handle);   /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
            attribute(&minor, 76, handle);   /* ..._MINOR */
        }
    }
    if (driver != NULL)
        driver(&version);
    snprintf(text, size, "NVIDIA %s (CUDA device %d, compute capability %d.%d), CUDA driver %d.%d; %s", model, ordinal,
             major, minor, version / 1000, version % 1000 / 10, RUNTIME_TEXT);
    dlclose(cuda);
}
#endif

static void describe_device(int device, int devices, char *text, size_t size)
{
#if defined(CLOMP_OFFLOAD_HOST_PLUGIN)
    snprintf(text, size, "host plugin (x86_64), not an accelerator: device %d of %d, %s", device, devices, RUNTIME_TEXT);
#elif defined(CLOMP_OFFLOAD_NVPTX)
    char gpu[400];
    describe_cuda_device(device, gpu, sizeof gpu);
    snprintf(text, size, "%s: device %d of %d", gpu, device, devices);
#elif defined(CLOMP_OFFLOAD_AMDGCN)
    snprintf(text, size, "AMD GPU (amdgcn; model not queried): device %d of %d, %s", device, devices, RUNTIME_TEXT);
#else
    snprintf(text, size, "device %d of %d, %s", device, devices, RUNTIME_TEXT);
#endif
}

int offload_open(long requested, char *why, size_t size)
{
    int devices = omp_get_num_devices();
    if (devices < 1) {
        snprintf(why, size, "no device: host fallback refused (omp_get_num_devices() is 0; %s=mandatory)", POLICY_VARIABLE);
        return EXIT_RESOURCE;
    }
    if (requested >= devices) {
        snprintf(why, size, "--offload-device=%ld: this node has %d offload device%s (0..%d)", requested, devices,
                 devices == 1 ? "" : "s", devices - 1);
        return EXIT_USAGE;
    }
    int device = requested >= 0 ? (int)requested : omp_get_default_device();
    if (device < 0 || device >= devices)
        device = 0;
    int on_host = 1;
#pragma omp target device(device) map(from : on_host)
    on_host = omp_is_initial_device();
    if (on_host) {
        snprintf(why, size, "no device: host fallback refused (a target region on device %d ran on the host)", device);
        return EXIT_RESOURCE;
    }
    device_number = device;
    describe_device(device, devices, device_text, sizeof device_text);
    device_info.text = device_text;
#ifdef CLOMP_OFFLOAD_HOST_PLUGIN
    device_info.host_plugin = 1;
#endif
    device_info.policy_before = previous_policy();
    return 0;
}

int offload_device(void)
{
    return device_number;
}

const OffloadDeviceInfo *offload_device_info(void)
{
    return device_number >= 0 ? &device_info : NULL;
}

#else

int offload_built(void)
{
    return 0;
}

int offload_open(long requested, char *why, size_t size)
{
    if (requested < 0)
        return 0;
    snprintf(why, size, "--offload-device: this clomp has no offload; build it with make OFFLOAD=host (or nvptx)");
    return EXIT_USAGE;
}

int offload_device(void)
{
    return -1;
}

const OffloadDeviceInfo *offload_device_info(void)
{
    return NULL;
}

#endif
