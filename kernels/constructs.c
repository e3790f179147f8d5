/* The construct table (construct.h): EPCC syncbench's order, then
 * schedbench's, taskbench's and arraybench's (4.0's rows beside 3.1's). */
#include "construct.h"

#include <string.h>

extern const Construct construct_parallel, construct_for, construct_parallel_for, construct_barrier,
    construct_barrier_var, construct_single, construct_critical, construct_lock, construct_lock_contended_hint,
    construct_lock_uncontended, construct_lock_uncontended_hint, construct_ordered, construct_atomic,
    construct_atomic_seqcst, construct_reduction;
extern const Construct construct_static, construct_static_monotonic, construct_static_n,
    construct_static_n_monotonic, construct_dynamic_n, construct_dynamic_n_monotonic, construct_guided_n,
    construct_guided_n_monotonic, construct_taskloop_n;
extern const Construct construct_parallel_task, construct_parallel_task_deps, construct_master_task,
    construct_master_task_deps, construct_master_task_busy, construct_conditional_task, construct_task_wait,
    construct_task_barrier, construct_nested_task, construct_nested_master_task, construct_branch_task_tree,
    construct_leaf_task_tree;
extern const Construct construct_private, construct_firstprivate, construct_copyprivate, construct_copyin;
#ifdef CLOMP_OFFLOAD
extern const Construct construct_target, construct_target_teams, construct_target_teams_dpf, construct_target_nowait,
    construct_target_map_to, construct_target_map_from, construct_target_map_tofrom, construct_target_atomic,
    construct_target_reduction, construct_target_map_alloc, construct_target_teams_parallel,
    construct_target_teams_parallels;
#endif

const Construct *const clomp_constructs[] = {
    &construct_parallel,         &construct_for,           &construct_parallel_for,
    &construct_barrier,          &construct_single,        &construct_critical,
    &construct_lock,             &construct_atomic,        &construct_reduction,
    &construct_static,           &construct_static_n,      &construct_dynamic_n,
    &construct_guided_n,
    /* EPCC 4.0's, appended: the rows above keep their places in every report. */
    &construct_barrier_var,      &construct_lock_contended_hint, &construct_lock_uncontended,
    &construct_lock_uncontended_hint, &construct_ordered,  &construct_atomic_seqcst,
    &construct_static_monotonic, &construct_static_n_monotonic, &construct_dynamic_n_monotonic,
    &construct_guided_n_monotonic, &construct_taskloop_n,
    &construct_parallel_task,    &construct_parallel_task_deps, &construct_master_task,
    &construct_master_task_deps, &construct_master_task_busy, &construct_conditional_task,
    &construct_task_wait,        &construct_task_barrier,  &construct_nested_task,
    &construct_nested_master_task, &construct_branch_task_tree, &construct_leaf_task_tree,
    &construct_private,          &construct_firstprivate,  &construct_copyprivate,
    &construct_copyin,
#ifdef CLOMP_OFFLOAD   /* offload builds only (make OFFLOAD=...) */
    &construct_target, &construct_target_teams, &construct_target_teams_dpf, &construct_target_nowait,
    &construct_target_map_to, &construct_target_map_from, &construct_target_map_tofrom,
    &construct_target_map_alloc, &construct_target_atomic, &construct_target_reduction,
    &construct_target_teams_parallel, &construct_target_teams_parallels,
#endif
};

const size_t clomp_construct_count = sizeof clomp_constructs / sizeof clomp_constructs[0];

const Construct *find_construct(const char *name)
{
    for (size_t i = 0; i < clomp_construct_count; i++)
        if (strcmp(clomp_constructs[i]->key, name) == 0 || strcmp(clomp_constructs[i]->name, name) == 0)
            return clomp_constructs[i];
    /* EPCC 4.0's name of 3.1's LOCK/UNLOCK. */
    if (strcmp(name, "LOCK_CONTENDED") == 0)
        return &construct_lock;
    return NULL;
}

const char *construct_row_name(const Construct *c, long chunk, char *buf, size_t size)
{
    if (chunk == 0)
        return c->name;
    snprintf(buf, size, "%.*s%ld", (int)(strlen(c->name) - 1), c->name, chunk);
    return buf;
}

const char *construct_kind_name(ConstructKind kind)
{
    static const char *const names[] = {"sync", "loop", "task", "data", "target"};
    return names[kind];
}

void print_construct_list(FILE *out)
{
    static const char *const params[] = {"-", "n", "size"};
    fprintf(out, "# key\tEPCC name\tkind\tparameter\twhat one instance is\n");
    for (size_t i = 0; i < clomp_construct_count; i++) {
        const Construct *c = clomp_constructs[i];
        fprintf(out, "%s\t%s\t%s\t%s\t%s%s%s\n", c->key, c->name, construct_kind_name(c->kind), params[c->takes_chunk],
                c->not_provided != NULL ? c->not_provided : "", c->not_provided != NULL ? "; " : "", c->what);
    }
}
