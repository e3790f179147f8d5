#include "chunk_timer.h"
#include "schedule.h"

#include <stdio.h>
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
extern const Schedule schedule_parallel_for;
extern const Schedule schedule_static1_omp;
extern const Schedule schedule_dynamic4_omp;
extern const Schedule schedule_guided_omp;
extern const Schedule schedule_nonmonotonic_omp;
extern const Schedule schedule_monotonic_omp;
extern const Schedule schedule_taskloop_omp;
extern const Schedule schedule_taskloop1_omp;
extern const Schedule schedule_tasks_omp;
#ifdef CLOMP_OFFLOAD
extern const Schedule schedule_offload_bestcase, schedule_offload_omp;
#endif

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
    &schedule_parallel_for,
    /* Optional (run only when --schedules names them), after every default entry. */
    &schedule_static1_omp,
    &schedule_dynamic4_omp,
    &schedule_guided_omp,
    &schedule_nonmonotonic_omp,
    &schedule_monotonic_omp,
    &schedule_taskloop_omp,
    &schedule_taskloop1_omp,
    &schedule_tasks_omp,
#ifdef CLOMP_OFFLOAD   /* offload builds only (make OFFLOAD=...) */
    &schedule_offload_bestcase,
    &schedule_offload_omp,
#endif
};

const size_t clomp_schedule_count = sizeof clomp_schedules / sizeof clomp_schedules[0];

const Schedule *find_schedule(const char *name)
{
    for (size_t i = 0; i < clomp_schedule_count; i++)
        if (strcmp(clomp_schedules[i]->name, name) == 0 || strcmp(clomp_schedules[i]->key, name) == 0)
            return clomp_schedules[i];
    return NULL;
}

const char *schedule_role_text(ScheduleRole role)
{
    switch (role) {
    case ROLE_PROBE:
        return "probe";
    case ROLE_REFERENCE:
        return "reference";
    case ROLE_BESTCASE:
        return "bestcase";
    default:
        return "checked";
    }
}

void print_schedule_list(FILE *out)
{
    fprintf(out, "# key\treport name\trole\tparameter\truns\tthreads\n");
    for (size_t i = 0; i < clomp_schedule_count; i++) {
        const Schedule *s = clomp_schedules[i];
        fprintf(out, "%s\t%s\t%s\t", s->key, s->name, schedule_role_text(s->role));
        if (s->parameter_kind != NULL)
            fprintf(out, "%s %ld", s->parameter_kind, s->parameter);
        else
            fputc('-', out);
        fprintf(out, "\t%s\t%s\n", s->optional ? "optional" : "default",
                s->nests ? "nested" : s->uses_threads ? "team" : "one");
    }
}

const char *schedule_keys(char *buf, size_t size, int optional)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < clomp_schedule_count && used < size; i++)
        if (clomp_schedules[i]->optional == optional) {
            int n = snprintf(buf + used, size - used, "%s%s", used > 0 ? " " : "", clomp_schedules[i]->key);
            if (n < 0)
                break;
            used += (size_t)n;
        }
    return buf;
}
