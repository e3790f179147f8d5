/* The OMPT types clomp's tool uses, as the OpenMP 5.x specification defines
 * them: through the compiler's omp-tools.h where it has one (clang), else
 * declared here (gcc ships none: libgomp has no OMPT, but the gcc build may
 * run on LLVM's libomp, which calls the tool all the same). */
#ifndef CLOMP_OMP_TOOLS_H
#define CLOMP_OMP_TOOLS_H

#if defined(__has_include)
#if __has_include(<omp-tools.h>)
#include <omp-tools.h>
#define CLOMP_HAVE_OMP_TOOLS_H 1
#endif
#endif

#ifndef CLOMP_HAVE_OMP_TOOLS_H
#include <stdint.h>

typedef union ompt_data_t {
    uint64_t value;
    void *ptr;
} ompt_data_t;

typedef struct ompt_frame_t {
    ompt_data_t exit_frame;
    ompt_data_t enter_frame;
    int exit_frame_flags;
    int enter_frame_flags;
} ompt_frame_t;

typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *interface_function_name);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t *tool_data);
typedef struct ompt_start_tool_result_t {
    ompt_initialize_t initialize;
    ompt_finalize_t finalize;
    ompt_data_t tool_data;
} ompt_start_tool_result_t;

typedef enum ompt_set_result_t {
    ompt_set_error = 0,
    ompt_set_never = 1,
    ompt_set_impossible = 2,
    ompt_set_sometimes = 3,
    ompt_set_sometimes_paired = 4,
    ompt_set_always = 5
} ompt_set_result_t;

typedef enum ompt_callbacks_t {
    ompt_callback_parallel_begin = 3,
    ompt_callback_parallel_end = 4,
    ompt_callback_task_create = 5,
    ompt_callback_implicit_task = 7,
    ompt_callback_work = 20,
    ompt_callback_sync_region = 23
} ompt_callbacks_t;

typedef void (*ompt_callback_t)(void);
typedef ompt_set_result_t (*ompt_set_callback_t)(ompt_callbacks_t event, ompt_callback_t callback);
typedef int (*ompt_get_parallel_info_t)(int ancestor_level, ompt_data_t **parallel_data, int *team_size);
typedef int (*ompt_get_task_info_t)(int ancestor_level, int *flags, ompt_data_t **task_data, ompt_frame_t **task_frame,
                                    ompt_data_t **parallel_data, int *thread_num);

typedef enum ompt_scope_endpoint_t { ompt_scope_begin = 1, ompt_scope_end = 2, ompt_scope_beginend = 3 } ompt_scope_endpoint_t;

typedef enum ompt_work_t {
    ompt_work_loop = 1,
    ompt_work_sections = 2,
    ompt_work_single_executor = 3,
    ompt_work_single_other = 4,
    ompt_work_workshare = 5,
    ompt_work_distribute = 6,
    ompt_work_taskloop = 7,
    ompt_work_scope = 8
} ompt_work_t;

typedef enum ompt_sync_region_t {
    ompt_sync_region_barrier = 1,
    ompt_sync_region_barrier_implicit = 2,
    ompt_sync_region_barrier_explicit = 3,
    ompt_sync_region_barrier_implementation = 4,
    ompt_sync_region_taskwait = 5,
    ompt_sync_region_taskgroup = 6,
    ompt_sync_region_reduction = 7,
    ompt_sync_region_barrier_implicit_workshare = 8,
    ompt_sync_region_barrier_implicit_parallel = 9,
    ompt_sync_region_barrier_teams = 10
} ompt_sync_region_t;

typedef enum ompt_task_flag_t {
    ompt_task_initial = 0x00000001,
    ompt_task_implicit = 0x00000002,
    ompt_task_explicit = 0x00000004
} ompt_task_flag_t;

typedef void (*ompt_callback_parallel_begin_t)(ompt_data_t *encountering_task_data,
                                               const ompt_frame_t *encountering_task_frame, ompt_data_t *parallel_data,
                                               unsigned int requested_parallelism, int flags, const void *codeptr_ra);
typedef void (*ompt_callback_parallel_end_t)(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                                             int flags, const void *codeptr_ra);
typedef void (*ompt_callback_implicit_task_t)(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                              ompt_data_t *task_data, unsigned int actual_parallelism,
                                              unsigned int index, int flags);
typedef void (*ompt_callback_task_create_t)(ompt_data_t *encountering_task_data,
                                            const ompt_frame_t *encountering_task_frame, ompt_data_t *new_task_data,
                                            int flags, int has_dependences, const void *codeptr_ra);
typedef void (*ompt_callback_work_t)(ompt_work_t work_type, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                                     ompt_data_t *task_data, uint64_t count, const void *codeptr_ra);
typedef void (*ompt_callback_sync_region_t)(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                            ompt_data_t *parallel_data, ompt_data_t *task_data,
                                            const void *codeptr_ra);

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);
#endif

#endif
