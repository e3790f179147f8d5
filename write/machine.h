/* The machine description a submission bundle carries (write/machine.c): clomp-write machine,
 * which results/machine.sh runs (at suite start, without python3 too, and from bundle.py). */
#ifndef CLOMP_MACHINE_H
#define CLOMP_MACHINE_H

/* machine DIR [EXE]: the description's files written into DIR (made by the caller). 0. */
int machine_main(int argc, char **argv);

#endif
