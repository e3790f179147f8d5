/* clomp's OMPT tool: the program defines ompt_start_tool, so that an OMPT
 * runtime (LLVM's libomp) offers it the tools interface at start-up. Inert
 * unless --ompt asked for it: ompt_start_tool then returns no tool and the
 * runtime runs exactly as without clomp's definition. */
#ifndef CLOMP_OMPT_TOOL_H
#define CLOMP_OMPT_TOOL_H

#include "census.h"

/* Which tool to attach: before the OpenMP runtime starts (its first call). */
void ompt_tool_request(OmptMode mode, double rate_hz);

/* Once the runtime has started: whether it offered the tools interface, and
 * which runtime it is. */
void ompt_tool_setup(OmptSetup *setup);

/* The census: counting starts and ends around one warm-up (on the thread
 * that runs the sequence, outside any parallel region). */
void ompt_census_begin(void);
void ompt_census_end(OmptCensus *census);

/* The measurement the samples are counted for (0..OMPT_MAX_SLOTS-1; -1:
 * none, samples are dropped), and taking its counts. */
#define OMPT_MAX_SLOTS 32
void ompt_samples_for(int slot);
void ompt_samples_take(int slot, OmptSamples *samples);

#endif
