/* A suite's files in an output directory, by their names (run_clomp.sh, suite/common.sh:
 * claim_new_id and refuse_links). Suite ID N of HOST owns every name CLOMP_HOST_N.*,
 * CLOMP_HOST_N_* and .CLOMP_HOST_N.* there (its .env, records, tables, hidden run CSV).
 *
 *   clomp-write claim DIR HOST   the lowest ID of which no file at all exists in DIR (a link,
 *       dangling or not, is a file: the suite would write through it), claimed by creating
 *       CLOMP_HOST_ID.env with O_EXCL (atomic against other suites and comparisons); prints
 *       the ID. Taken meanwhile by another driver: the next ID.
 *   clomp-write refuse-links DIR STEM   --resume reads and writes only regular files: a suite
 *       (copied from elsewhere) whose files, hidden ones included, are links or anything but
 *       regular files and directories is refused before any is opened.
 *
 * The refusals are the driver's own lines ("run_clomp.sh: ..."), exit 2, as its shell said
 * them: no free ID (1..1000), DIR refusing the file with the system's reason ("Read-only
 * file system"), a suite file that is a link, named (the first as bash's globs list them:
 * STEM.* then STEM_* then .STEM.*, each sorted by the locale's collation). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite_names.h"

enum { MAX_SUITE_ID = 1000 };

struct names {
    char **name;
    size_t count;
};

/* DIR's entries (none when it cannot be read: bash's globs then match nothing either). */
static struct names list_dir(const char *dir)
{
    struct names all = {NULL, 0};
    size_t room = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return all;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (all.count == room) {
            room = room ? 2 * room : 64;
            char **more = realloc(all.name, room * sizeof *more);
            if (more == NULL)
                break;
            all.name = more;
        }
        if ((all.name[all.count] = strdup(e->d_name)) != NULL)
            all.count++;
    }
    closedir(d);
    return all;
}

static void free_names(struct names *all)
{
    for (size_t i = 0; i < all->count; i++)
        free(all->name[i]);
    free(all->name);
}

/* Which of the suite's globs NAME matches: 1 STEM.*, 2 STEM_*, 3 .STEM.*; 0 none. */
static int suite_glob(const char *name, const char *stem)
{
    size_t n = strlen(stem);
    if (strncmp(name, stem, n) == 0 && (name[n] == '.' || name[n] == '_'))
        return name[n] == '.' ? 1 : 2;
    if (name[0] == '.' && strncmp(name + 1, stem, n) == 0 && name[n + 1] == '.')
        return 3;
    return 0;
}

static int by_collation(const void *a, const void *b)
{
    return strcoll(*(char *const *)a, *(char *const *)b);
}

int suite_claim(const char *dir, const char *host)
{
    struct names all = list_dir(dir);
    int claimed = 0;
    for (int id = 1; id <= MAX_SUITE_ID && !claimed; id++) {
        char stem[NAME_MAX + 1], path[PATH_MAX];
        snprintf(stem, sizeof stem, "CLOMP_%s_%d", host, id);
        int taken = 0;
        for (size_t i = 0; i < all.count && !taken; i++)
            taken = suite_glob(all.name[i], stem) != 0;
        if (taken)
            continue;
        if (snprintf(path, sizeof path, "%s/%s.env", dir, stem) >= (int)sizeof path) {
            errno = ENAMETOOLONG;
        } else {
            int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
            if (fd >= 0) {
                close(fd);
                printf("%d\n", id);
                claimed = 1;
                break;
            }
        }
        /* Taken meanwhile by another driver: the next ID. Not there at all: DIR refused it. */
        int why = errno;
        struct stat st;
        if (stat(path, &st) != 0) {
            fprintf(stderr, "run_clomp.sh: --out: cannot write in %s: %s\n", dir, strerror(why));
            free_names(&all);
            return 2;
        }
    }
    free_names(&all);
    if (!claimed) {
        fprintf(stderr, "run_clomp.sh: no free suite ID (1..%d) in %s\n", MAX_SUITE_ID, dir);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

int suite_refuse_links(const char *dir, const char *stem)
{
    struct names all = list_dir(dir);
    int refused = 0;
    setlocale(LC_COLLATE, "");
    if (all.count > 1)
        qsort(all.name, all.count, sizeof *all.name, by_collation);
    for (int glob = 1; glob <= 3 && !refused; glob++) {
        for (size_t i = 0; i < all.count && !refused; i++) {
            char path[PATH_MAX];
            struct stat st;
            if (suite_glob(all.name[i], stem) != glob)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, all.name[i]);
            if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "run_clomp.sh: --resume: %s is a symbolic link or not a regular file: refused "
                                "(a suite's files are its own regular files)\n", path);
                refused = 1;
            }
        }
    }
    free_names(&all);
    return refused ? 2 : 0;
}

int suite_out_dir(const char *dir)
{
    struct stat st;
    if (dir[0] == '\0') {   /* no name to make (the loop below starts past the first byte) */
        fprintf(stderr, "run_clomp.sh: --out: needs a directory\n");
        return 2;
    }
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        fprintf(stderr, "run_clomp.sh: --out: %s is not a directory\n", dir);
        return 2;
    }
    /* mkdir -p: every component in turn; one that is a directory already is passed over */
    char path[PATH_MAX];
    int err = snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path ? ENAMETOOLONG : 0;
    for (char *p = path + 1; err == 0; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char end = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0) {
            err = errno;
            if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
                err = 0;
            else if (err == EEXIST && stat(path, &st) == 0)   /* a file where a directory must go (a link */
                err = ENOTDIR;                                  /* to nothing: "File exists", as mkdir -p says) */
        }
        *p = end;
        if (end == '\0')
            break;
    }
    if (err == 0)
        return 0;
    fprintf(stderr, "run_clomp.sh: --out: cannot create %s: %s\n", dir, strerror(err));
    return 2;
}
