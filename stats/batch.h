/* clomp-stats batch (stats/batch.c): a report's requests in one process. */
#ifndef CLOMP_STATS_BATCH_H
#define CLOMP_STATS_BATCH_H

/* One request, ARGV as clomp-stats' command line (ARGV[0] its name): its exit status (stats/clomp_stats.c). */
int answer(int argc, char **argv);
/* Answers standard input's requests, one a line, until its end: exit status 0 (2: it could not start). */
int batch(void);

#endif
