/* What built this binary (users must report it with their results), and
 * which environment variables steer its OpenMP runtime. */
#ifndef CLOMP_BUILD_INFO_H
#define CLOMP_BUILD_INFO_H

#include <stdio.h>

typedef struct BuildInfo {
    const char *compiler;    /* "GCC 12.2.0", "Clang 14.0.6 (...)" */
    const char *cc;          /* the CC make used */
    const char *cflags;
    const char *ldflags;
    long openmp;             /* _OPENMP, e.g. 201511 */
    const char *openmp_spec; /* "4.5" */
    const char *host;        /* host it was built on */
    const char *date;
    const char *version;     /* clomp's own version */
    const char *commit;      /* the git commit built, "-dirty" with changed sources; "unknown" outside a checkout */
} BuildInfo;

const BuildInfo *build_info(void);
/* clomp --version; mpi_build: this is clomp_mpi. */
void print_version(FILE *out, int mpi_build);

/* Whether an environment entry ("NAME=value") steers an OpenMP runtime
 * (OMP_*, GOMP_*, KMP_*, XLSMPOPTS, LIBOMP_*): the text report and the JSON
 * list the same ones. */
int is_openmp_variable(const char *entry);

/* An environment entry's value when it steers an OpenMP runtime, its name in
 * `name` (cut to `size`); NULL otherwise. */
const char *openmp_variable(const char *entry, char *name, size_t size);

#endif
