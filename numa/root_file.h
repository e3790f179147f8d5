/* Small files under a root directory: "" is the running system; tests and
 * emulated nodes give a stand-in tree laid out as the kernel lays out /sys
 * and /proc. Plain reads (open/read, no stdio, no heap): the topology may be
 * read before the mesh is built, whose heap it must not move. */
#ifndef CLOMP_ROOT_FILE_H
#define CLOMP_ROOT_FILE_H

#include <stddef.h>

/* root followed by path into buf (NUL-terminated, at most size - 1 bytes):
 * 0, or -1 when it cannot be read or is empty. */
int read_root_file(const char *root, const char *path, char *buf, size_t size);

/* The integer (-1 .. 2^30) that file root + path begins with: 0, or -1. */
int read_root_int(const char *root, const char *path, int *value);

/* The lowest CPU of the sysfs CPU list ("0-3,8") in file root + path, or -1. */
int read_root_first_cpu(const char *root, const char *path);

#endif
