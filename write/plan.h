/* clomp-write plan (write/plan.c): the suite's plan up to its sweeps. */
#ifndef CLOMP_WRITE_PLAN_H
#define CLOMP_WRITE_PLAN_H
/* argv: what follows "plan" on the command line; returns the exit status. */
int plan_main(int argc, char **argv);
#endif
