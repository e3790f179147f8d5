/* The catalogue of figures read by its columns' names (write/figure_rows.c): clomp-write figures,
 * which suite/catalogue.sh figure_rows runs on clomp --list-figures. */
#ifndef CLOMP_FIGURE_ROWS_H
#define CLOMP_FIGURE_ROWS_H

/* figures SET COLUMN...: the rows of SET, the named COLUMNs joined by '|'. 0; 2: usage. */
int figure_rows_main(int argc, char **argv);

#endif
