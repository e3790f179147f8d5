/* Open MPI's refusal to run as root (write/mpi_root.c, clomp-write launcher root-refusal). */
#ifndef CLOMP_WRITE_MPI_ROOT_H
#define CLOMP_WRITE_MPI_ROOT_H
/* PROGRAM: the launcher COMMAND's first word. Prints the driver's message, or nothing. */
void mpi_root_refusal(const char *program, const char *command);
#endif
