#include "progress.h"

#include "text_report.h"

void progress_starting(const Progress *p, const Measurement *m)
{
    print_block_start(p->out, m);
    fflush(p->out);
}

static void print_results(const Progress *p, size_t i)
{
    print_block_results(p->out, p->run, &p->shown[i], find_measurement(p->shown, p->count, ROLE_REFERENCE, NULL),
                        find_measurement(p->shown, p->count, ROLE_BESTCASE, NULL));
    print_offload_launch(p->out, &p->shown[i], find_measurement(p->shown, p->count, ROLE_BESTCASE, "offload_bestcase"));
}

void progress_finished(const Progress *p, size_t i)
{
    if (p->run->rounds == 1)
        print_results(p, i);
}

/* Why it cannot run here (Nested OMP below 2x2 threads); nothing when
 * --schedules left it out. */
void progress_skipped(const Progress *p, const Measurement *m)
{
    if (p->run->rounds == 1)
        print_block_unavailable(p->out, p->run, m);
}

void progress_round_done(const Progress *p, long round, double seconds, long measured)
{
    fprintf(p->out, "            Round: %ld of %ld done in %.1f s (%ld measurements, every chunk of "
                    "every checked run verified)\n", round + 1, p->run->rounds, seconds, measured);
    fflush(p->out);
}

void progress_all_blocks(const Progress *p)
{
    fprintf(p->out, "---------------------\n");
    for (size_t i = 0; i < p->count; i++) {
        if (!measurement_runs(&p->shown[i])) {
            print_block_unavailable(p->out, p->run, &p->shown[i]);
            continue;
        }
        print_block_start(p->out, &p->shown[i]);
        print_results(p, i);
    }
}
