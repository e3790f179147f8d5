#include "build_info.h"

#include <string.h>

#include "build_info_generated.h"
#include "../numa/placement.h"

#define CLOMP_VERSION "1.0.0"

#if defined(__clang__)
#define COMPILER_TEXT "Clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER_TEXT "GCC " __VERSION__
#else
#define COMPILER_TEXT "unknown compiler"
#endif

static const char *openmp_spec(long version)
{
    static const struct { long date; const char *spec; } specs[] = {
        {202111, "5.2"}, {202011, "5.1"}, {201811, "5.0"}, {201511, "4.5"},
        {201307, "4.0"}, {201107, "3.1"}, {200805, "3.0"}, {200505, "2.5"},
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (version >= specs[i].date)
            return specs[i].spec;
    return "older than 2.5";
}

const BuildInfo *build_info(void)
{
    static BuildInfo info;
    static char compiler[128];
    /* __clang_version__ ends in a space */
    snprintf(compiler, sizeof compiler, "%s", COMPILER_TEXT);
    for (size_t n = strlen(compiler); n > 0 && compiler[n - 1] == ' '; n--)
        compiler[n - 1] = '\0';
    info.compiler = compiler;
    info.cc = CLOMP_BUILD_CC;
    info.cflags = CLOMP_BUILD_CFLAGS;
    info.ldflags = CLOMP_BUILD_LDFLAGS;
    info.openmp = _OPENMP;
    info.openmp_spec = openmp_spec(_OPENMP);
    info.host = CLOMP_BUILD_HOST;
    info.date = CLOMP_BUILD_DATE;
    info.version = CLOMP_VERSION;
    info.commit = CLOMP_BUILD_COMMIT;
    return &info;
}

void print_version(FILE *out, int mpi_build)
{
    const BuildInfo *b = build_info();
    fprintf(out, "clomp %s (CLOMP 1.2 compatible output)\n", b->version);
    fprintf(out, "compiler: %s (CC=%s)\n", b->compiler, b->cc);
    fprintf(out, "CFLAGS: %s\n", b->cflags);
    fprintf(out, "LDFLAGS: %s\n", b->ldflags);
    fprintf(out, "OpenMP: %ld (OpenMP %s)\n", b->openmp, b->openmp_spec);
    fprintf(out, "built on: %s at %s\n", b->host, b->date);
    fprintf(out, "commit: %s\n", b->commit);
    fprintf(out, "libnuma: %s\n", numa_support_built() ? "yes (--numa available)" : "no (built with NUMA=0 or without libnuma-dev)");
    fprintf(out, "mpi: %s\n", mpi_build ? "yes (clomp_mpi: run it under mpirun or srun)"
                                         : "no (make MPI=1 builds clomp_mpi)");
#if defined(CLOMP_OFFLOAD_HOST_PLUGIN)
    fprintf(out, "offload: host plugin (x86_64), not an accelerator (make OFFLOAD=host)\n");
#elif defined(CLOMP_OFFLOAD_NVPTX)
    fprintf(out, "offload: nvptx (gcc -foffload=nvptx-none; needs an NVIDIA GPU and its driver)\n");
#elif defined(CLOMP_OFFLOAD_AMDGCN)
    fprintf(out, "offload: amdgcn (gcc -foffload=amdgcn-amdhsa; needs an AMD GPU and ROCm)\n");
#else
    fprintf(out, "offload: no (make OFFLOAD=host|nvptx builds clomp-offload-KIND)\n");
#endif
}

const char *openmp_variable(const char *entry, char *name, size_t size)
{
    const char *eq = strchr(entry, '=');
    if (eq == NULL || !is_openmp_variable(entry) || size == 0)
        return NULL;
    size_t len = (size_t)(eq - entry) < size - 1 ? (size_t)(eq - entry) : size - 1;
    memcpy(name, entry, len);
    name[len] = '\0';
    return eq + 1;
}

int is_openmp_variable(const char *entry)
{
    /* Every runtime profile's variables (env/runtimes/, through build_info_generated.h). */
    static const char *const prefixes[] = {CLOMP_RUNTIME_VARIABLE_PREFIXES};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}
