/* clomp-write drop-unfinished (write/resume_drop.c): --resume's tables without unfinished runs. */
#ifndef CLOMP_WRITE_RESUME_DROP_H
#define CLOMP_WRITE_RESUME_DROP_H
/* argv: what follows "drop-unfinished" on the command line; returns the exit status. */
int resume_drop_main(int argc, char **argv);
#endif
