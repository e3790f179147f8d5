/* --ompt=MODE: which OMPT tool clomp attaches to the OpenMP runtime
 * (ompt/tool.c). Chosen on the command line, before the runtime starts. */
#ifndef CLOMP_OMPT_MODE_H
#define CLOMP_OMPT_MODE_H

typedef enum {
    OMPT_MODE_NONE = 0,   /* default: ompt_start_tool returns no tool */
    OMPT_MODE_TRIVIAL,    /* a tool with an initializer and a finalizer only */
    OMPT_MODE_CENSUS,     /* counts regions, teams, tasks, loops, barriers in each warm-up */
    OMPT_MODE_SAMPLING    /* the census, and a CPU-time timer whose handler checks what the runtime says */
} OmptMode;

#define OMPT_DEFAULT_RATE_HZ 200.0
#define OMPT_MAX_RATE_HZ 10000.0

/* "none", "trivial", "census", "sampling". */
static inline const char *ompt_mode_name(OmptMode mode)
{
    static const char *const names[] = {"none", "trivial", "census", "sampling"};
    return names[mode];
}

#endif
