/* clomp-write eta (write/eta.c): the suite's remaining time. */
#ifndef CLOMP_WRITE_ETA_H
#define CLOMP_WRITE_ETA_H
/* argv: what follows "eta" on the command line; returns the exit status. */
int eta_main(int argc, char **argv);
#endif
