#include "limits_options.h"

#include <stdio.h>
#include <string.h>

#include "construct_options.h"
#include "exit_status.h"

void default_limits_options(LimitsOptions *l)
{
    memset(l, 0, sizeof *l);
    l->reps = LIMITS_DEFAULT_REPS;
    l->target_us = LIMITS_DEFAULT_TARGET_US;
    l->trips = LIMITS_DEFAULT_TRIPS;
}

int parse_limits_option(const char *arg, LimitsOptions *l, char *error, size_t size)
{
    double value = 0.0;
    int status;
    if (strcmp(arg, "--limits") == 0) {
        l->asked = 1;
        return 1;
    }
    if (strncmp(arg, "--limits-reps=", 14) == 0) {
        if ((status = parse_whole("--limits-reps", arg + 14, (double)LIMITS_MAX_REPS, &value, error, size)) != 0)
            return status;
        l->reps = (long)value;
    } else if (strncmp(arg, "--limits-time=", 14) == 0) {
        if ((status = parse_positive("--limits-time", arg + 14, LIMITS_MAX_TARGET_US, &l->target_us, error, size)) != 0)
            return status;
    } else if (strncmp(arg, "--limits-trips=", 15) == 0) {
        if ((status = parse_whole("--limits-trips", arg + 15, (double)LIMITS_MAX_TRIPS, &value, error, size)) != 0)
            return status;
        l->trips = (long)value;
    } else {
        return 0;
    }
    l->given = 1;
    return 1;
}

int check_limits_options(const LimitsOptions *l, char *error, size_t size)
{
    if (!l->given || l->asked)
        return 0;
    snprintf(error, size, "--limits-*: these options set up --limits, which was not given");
    return EXIT_USAGE;
}
