/* A suite's files in an output directory, by their names (write/suite_names.c): clomp-write's
 * claim and refuse-links, run_clomp.sh's new suite ID and --resume's check of its files. */
#ifndef CLOMP_SUITE_NAMES_H
#define CLOMP_SUITE_NAMES_H

/* claim DIR HOST: the lowest free suite ID in DIR, claimed (CLOMP_HOST_ID.env created) and
 * printed; 2 and the driver's one line when none is free or DIR refuses the file. */
int suite_claim(const char *dir, const char *host);
/* refuse-links DIR STEM: 0 when every file of suite STEM in DIR is a regular file or a
 * directory; else 2 and the driver's one line naming the first that is not. */
int suite_refuse_links(const char *dir, const char *stem);
/* out-dir DIR: run_clomp.sh's --out, made if need be (mkdir -p); 2 and the driver's one line with
 * the system's reason when it is not a directory or cannot be made. */
int suite_out_dir(const char *dir);

#endif
