/* The construct table (construct.h): EPCC syncbench's order, then schedbench's. */
#include "construct.h"

#include <string.h>

extern const Construct construct_parallel, construct_for, construct_parallel_for, construct_barrier,
    construct_single, construct_critical, construct_lock, construct_atomic, construct_reduction;
extern const Construct construct_static, construct_static_n, construct_dynamic_n, construct_guided_n;
#ifdef CLOMP_OFFLOAD
extern const Construct construct_target, construct_target_teams, construct_target_teams_dpf, construct_target_nowait,
    construct_target_map_to, construct_target_map_from, construct_target_map_tofrom;
#endif

const Construct *const clomp_constructs[] = {
    &construct_parallel, &construct_for,      &construct_parallel_for, &construct_barrier,
    &construct_single,   &construct_critical, &construct_lock,         &construct_atomic,
    &construct_reduction,
    &construct_static,   &construct_static_n, &construct_dynamic_n,    &construct_guided_n,
#ifdef CLOMP_OFFLOAD   /* offload builds only (make OFFLOAD=...) */
    &construct_target, &construct_target_teams, &construct_target_teams_dpf, &construct_target_nowait,
    &construct_target_map_to, &construct_target_map_from, &construct_target_map_tofrom,
#endif
};

const size_t clomp_construct_count = sizeof clomp_constructs / sizeof clomp_constructs[0];

const Construct *find_construct(const char *name)
{
    for (size_t i = 0; i < clomp_construct_count; i++)
        if (strcmp(clomp_constructs[i]->key, name) == 0 || strcmp(clomp_constructs[i]->name, name) == 0)
            return clomp_constructs[i];
    return NULL;
}

void print_construct_list(FILE *out)
{
    fprintf(out, "# key\tEPCC name\tkind\tchunk\twhat one instance is\n");
    for (size_t i = 0; i < clomp_construct_count; i++) {
        const Construct *c = clomp_constructs[i];
        fprintf(out, "%s\t%s\t%s\t%s\t%s\n", c->key, c->name, c->kind == CONSTRUCT_LOOP ? "loop" : c->kind == CONSTRUCT_TARGET ? "target" : "sync",
                c->takes_chunk ? "n" : "-", c->what);
    }
}
