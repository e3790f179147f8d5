/* What built this binary: users must report it with their results. */
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
} BuildInfo;

const BuildInfo *build_info(void);
void print_version(FILE *out);

#endif
