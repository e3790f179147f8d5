/* Minimal TAP producer for the C unit tests (read by prove). */
#ifndef CLOMP_TEST_TAP_H
#define CLOMP_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3))) static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_count++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    if (!cond)
        tap_failed++;
    fflush(stdout);
    return cond;
}

/* Bit-for-bit equality: the only equality clomp's verification accepts. */
static inline int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int done_testing(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed != 0;
}

#endif
