/* Small files under a root directory (root_file.h). */
#include "root_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "thread_placement.h"

int read_root_file(const char *root, const char *path, char *buf, size_t size)
{
    char full[1024];
    if (snprintf(full, sizeof full, "%s%s", root, path) >= (int)sizeof full)
        return -1;
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(fd, buf + used, size - 1 - used)) > 0)
        used += (size_t)n;
    close(fd);
    buf[used] = '\0';
    return used > 0 ? 0 : -1;
}

int read_root_int(const char *root, const char *path, int *value)
{
    char text[32], *end;
    if (read_root_file(root, path, text, sizeof text) != 0)
        return -1;
    long v = strtol(text, &end, 10);
    if (end == text || v < -1 || v > 1L << 30)
        return -1;
    *value = (int)v;
    return 0;
}

int read_root_first_cpu(const char *root, const char *path)
{
    enum { LIST_CPUS = 8192 };   /* the kernel's largest NR_CPUS */
    unsigned char marks[LIST_CPUS];
    char text[4096];
    if (read_root_file(root, path, text, sizeof text) != 0 || parse_cpu_list(text, marks, LIST_CPUS) <= 0)
        return -1;
    for (int c = 0; c < LIST_CPUS; c++)
        if (marks[c])
            return c;
    return -1;
}
