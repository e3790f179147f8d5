#include "schedule.h"

#include <string.h>

extern const Schedule schedule_calc_deposit;
extern const Schedule schedule_omp_barrier;
extern const Schedule schedule_serial_ref;
extern const Schedule schedule_bestcase_omp;
extern const Schedule schedule_static_omp;
extern const Schedule schedule_dynamic_omp;
extern const Schedule schedule_manual_omp;
extern const Schedule schedule_nested_omp;
extern const Schedule schedule_omp_parallel;

const Schedule *const clomp_schedules[] = {
    &schedule_calc_deposit,
    &schedule_omp_barrier,
    &schedule_serial_ref,
    &schedule_bestcase_omp,
    &schedule_static_omp,
    &schedule_dynamic_omp,
    &schedule_manual_omp,
    &schedule_nested_omp,
    &schedule_omp_parallel,
};

const size_t clomp_schedule_count = sizeof clomp_schedules / sizeof clomp_schedules[0];

const Schedule *find_schedule(const char *name)
{
    for (size_t i = 0; i < clomp_schedule_count; i++)
        if (strcmp(clomp_schedules[i]->name, name) == 0 || strcmp(clomp_schedules[i]->key, name) == 0)
            return clomp_schedules[i];
    return NULL;
}
