/* clomp-write preflight (write/preflight.c): the suite's preflight warnings about the node. */
#ifndef CLOMP_WRITE_PREFLIGHT_H
#define CLOMP_WRITE_PREFLIGHT_H
/* argv: what follows "preflight" on the command line; returns the exit status. */
int preflight_main(int argc, char **argv);
#endif
