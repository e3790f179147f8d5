/* How clomp-stats writes one answer (stats/answer_fields.c): field by
 * field, tab-separated in the fields' order, or with --json one JSON
 * object whose members are the fields' names. NaN is NA / null. */
#ifndef CLOMP_ANSWER_FIELDS_H
#define CLOMP_ANSWER_FIELDS_H

#include <setjmp.h>

extern int json_output;
extern int fields_written;
/* clomp-stats batch (stats/clomp_stats.c) answers many requests in one process: a request
 * refused jumps back there (answer_exit) instead of ending the process. NULL: exit. */
extern jmp_buf *answer_jump;
_Noreturn void answer_exit(int status);

void field_begin(const char *name);
void answer_end(void);
void field_raw(const char *name, const char *text, int is_string);
void field_number(const char *name, double v);
void field_long(const char *name, long v);
void field_text(const char *name, double v, double uncertainty);

/* clomp-stats paired ... and holm ... (stats/paired_answer.c): exit status. */
int paired_answer(int argc, char **argv);
int holm_answer(int argc, char **argv);
/* clomp-stats judge ... (stats/judge_answer.c): exit status. */
int judge_answer(int argc, char **argv);
/* clomp-stats outliers < REQUEST (stats/outlier_answer.c): exit status. */
int outlier_answer(int argc, char **argv);
/* clomp-stats plan ... (stats/plan_answer.c): exit status. */
int plan_answer(int argc, char **argv);
/* clomp-stats replicates ... (stats/replicates_answer.c; its recorded action:
 * stats/replicates_recorded.c): run_clomp.sh --replicates auto's decisions. Exit status. */
int replicates_answer(int argc, char **argv);
int replicates_recorded(int argc, char **argv);

#endif
