/* clomp-write sets (write/suite_sets.c): the suite's construct and offload runs' shapes and options. */
#ifndef CLOMP_WRITE_SUITE_SETS_H
#define CLOMP_WRITE_SUITE_SETS_H
/* argv: what follows "sets" on the command line; returns the exit status. */
int suite_sets_main(int argc, char **argv);
#endif
