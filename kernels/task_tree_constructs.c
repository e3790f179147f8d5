/* EPCC 4.0's taskbench, continued (task_constructs.c): tasks inside tasks
 * (an outer task generates one task per thread and waits for them) and
 * binary task trees of depth 6, with the work at every node or at the
 * leaves only. Each runs innerreps delays per thread in all; probed, every
 * delay ran, and every nested taskwait waited for its tasks. */
#include <omp.h>
#include <stdlib.h>

#include "construct.h"
#include "construct_probe.h"
#include "construct_region.h"
#include "delay.h"
#include "fault.h"

#define TREE_DEPTH 6   /* EPCC's: a tree of 64 delays */

static void delays(const ConstructWork *w)
{
    for (long j = 0; j < w->innerreps; j++)
        epcc_delay(w->delay_length);
}

/* An outer task that generates `inner` tasks of one delay and waits for
 * them (probed: they have all ended when the taskwait does). */
static inline void outer_task(const ConstructWork *w, int inner, int untied, int wrong)
{
    atomic_int ended = 0;
    /* Without the taskwait (fault build) the tasks outlive this frame: their
     * count goes where it stays valid, and is left there. */
    atomic_int *count = &ended;
    if (wrong && w->probe != NULL)
        count = calloc(1, sizeof *count);
    for (int i = 0; i < inner; i++) {
        /* The branches differ only in their OpenMP directives, which clang-tidy's
           clone check does not compare. */
        if (untied) { // NOLINT(bugprone-branch-clone)
#pragma omp task untied
            {
                probed_task_delay(w);
                if (w->probe != NULL)
                    atomic_fetch_add(count, 1);
            }
        } else {
#pragma omp task
            {
                probed_task_delay(w);
                if (w->probe != NULL)
                    atomic_fetch_add(count, 1);
            }
        }
    }
    if (!wrong) {
#pragma omp taskwait
    }
    if (w->probe != NULL && count != NULL && atomic_load(count) != inner)
        probe_fail(w->probe, "a nested task's taskwait ended with %d of its %d tasks done", atomic_load(count), inner);
}

/* Every thread innerreps/team outer tasks of team (untied) inner tasks each. */
static void test_nested_task(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        probe_team(w);
        int team = omp_get_num_threads();
        for (long j = 0; j < w->innerreps / team; j++) {
#pragma omp task
            outer_task(w, team, 1, CONSTRUCT_WRONG_BODY("nested_task"));
        }
    }
}

/* The master generates innerreps outer tasks of team inner tasks each. */
static void test_nested_master_task(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        probe_team(w);
        int team = omp_get_num_threads();
#pragma omp master
        for (long j = 0; j < w->innerreps; j++) {
#pragma omp task
            outer_task(w, team, 0, CONSTRUCT_WRONG_BODY("nested_master_task"));
        }
    }
}

/* A task at every node above the leaves: two subtrees, then a delay. */
static void branch_tree(const ConstructWork *w, int depth)
{
    if (depth == 0)
        return;
#pragma omp task
    {
        branch_tree(w, depth - 1);
        branch_tree(w, depth - 1);
        probed_delay(w);
    }
}

/* Every thread innerreps/64 tasks, each a branch tree of depth 6 and a delay: 64 delays. */
static void test_branch_task_tree(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        probe_team(w);
        for (long j = 0; j < w->innerreps >> TREE_DEPTH; j++) {
#pragma omp task
            {
                branch_tree(w, TREE_DEPTH);
                probed_delay(w);
            }
        }
    }
}

/* Tasks at the nodes, delays at the 64 leaves only. */
static void leaf_tree(const ConstructWork *w, int depth)
{
    if (depth == 0) {
        probed_delay(w);
        return;
    }
#pragma omp task
    {
        leaf_tree(w, depth - 1);
        leaf_tree(w, depth - 1);
    }
}

static void test_leaf_task_tree(const ConstructWork *w)
{
#pragma omp parallel num_threads(w->threads) firstprivate(w)
    {
        region_log_note(w->log);
        probe_team(w);
        for (long j = 0; j < w->innerreps >> TREE_DEPTH; j++)
            leaf_tree(w, TREE_DEPTH);
    }
}

#define CHECK(fn, test, innerreps)                                                  \
    static int fn(const ConstructWork *w, char *why, size_t why_size)               \
    {                                                                               \
        return construct_check_tasks(w, test, innerreps, 1, why, why_size);         \
    }
CHECK(check_nested_task, test_nested_task, 4L * w->threads)
CHECK(check_nested_master_task, test_nested_master_task, 4)
CHECK(check_branch_task_tree, test_branch_task_tree, 1L << TREE_DEPTH)
CHECK(check_leaf_task_tree, test_leaf_task_tree, 1L << TREE_DEPTH)

#define TASK_ROW(var, key_, name_, test_, check_, step, what_)                                       \
    const Construct var = {.key = (key_), .name = (name_), .kind = CONSTRUCT_TASK, .test = (test_), \
                           .reference = delays, .what = (what_), .check = (check_), .innerreps_step = (step)}
TASK_ROW(construct_nested_task, "nested_task", "NESTED TASK", test_nested_task, check_nested_task, 1,
         "an untied task of one delay inside a task of threads of them and a taskwait; all threads generate");
TASK_ROW(construct_nested_master_task, "nested_master_task", "NESTED MASTER TASK", test_nested_master_task,
         check_nested_master_task, 1, "a task of one delay inside a task of threads of them and a taskwait; the master generates");
TASK_ROW(construct_branch_task_tree, "branch_task_tree", "BRANCH TASK TREE", test_branch_task_tree,
         check_branch_task_tree, 64, "a task of one delay in a binary tree of depth 6 (delays at every node); every thread innerreps/64 trees");
TASK_ROW(construct_leaf_task_tree, "leaf_task_tree", "LEAF TASK TREE", test_leaf_task_tree, check_leaf_task_tree,
         64, "a delay at a leaf of a binary task tree of depth 6 (64 leaves); every thread innerreps/64 trees");
