/* clomp-write slurm (write/slurm_facts.c): the Slurm job's facts and preflight warning. */
#ifndef CLOMP_WRITE_SLURM_FACTS_H
#define CLOMP_WRITE_SLURM_FACTS_H
/* argv: what follows "slurm" on the command line; returns the exit status. */
int slurm_main(int argc, char **argv);
#endif
