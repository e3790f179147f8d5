/* clomp-write launcher (write/launcher.c): the --mpi launcher as the suite reads it. */
#ifndef CLOMP_WRITE_LAUNCHER_H
#define CLOMP_WRITE_LAUNCHER_H
/* argv: what follows "launcher" on the command line; returns the exit status. */
int launcher_main(int argc, char **argv);
#endif
