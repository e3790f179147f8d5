/* clomp's exit statuses (documented in docs/running.md). */
#ifndef CLOMP_EXIT_STATUS_H
#define CLOMP_EXIT_STATUS_H

enum {
    EXIT_OK = 0,
    EXIT_VERIFY_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_RESOURCE = 3
};

#endif
