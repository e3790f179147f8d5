#include "groups.h"

int measure_asked_groups(const RunSetup *run, RunRecord *record, MeasuredGroups *groups, char *why, size_t why_size)
{
    int status = measure_asked_constructs(run, record, &groups->constructs, why, why_size);
    return status != 0 ? status : measure_asked_limits(run, record, &groups->limits, why, why_size);
}

void free_groups(MeasuredGroups *groups)
{
    free_constructs(&groups->constructs);
    free_limits(&groups->limits);
}
