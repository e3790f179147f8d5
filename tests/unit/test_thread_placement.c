/* The placement table's parts: sysfs CPU lists, the topology read from a
 * made-up sysfs tree, and the shared-core and unbound counts on hand-built
 * teams. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numa/thread_placement.h"
#include "tap.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    unsigned char marks[16];
    ok(parse_cpu_list("0-3,8,10-11\n", marks, 16) == 7 && marks[0] && marks[3] && !marks[4] && marks[8] && !marks[9] &&
           marks[10] && marks[11],
       "0-3,8,10-11 marks the seven CPUs 0,1,2,3,8,10,11 and no other");
    ok(parse_cpu_list("5", marks, 16) == 1 && marks[5], "a single CPU is a list");
    ok(parse_cpu_list("3-1", marks, 16) < 0 && parse_cpu_list("x", marks, 16) < 0 && parse_cpu_list("1,,2", marks, 16) < 0,
       "3-1, x and 1,,2 are not CPU lists");

    /* cpu1: core 0 of socket 1 on node 1; cpu2 has no topology at all. */
    char root[] = "/tmp/clomp-sysfs-XXXXXX", path[256];
    if (mkdtemp(root) == NULL) {
        printf("Bail out! mkdtemp failed\n");
        return 255;
    }
    snprintf(path, sizeof path, "%s/cpu1", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu1/topology", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu1/node1", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu1/topology/core_id", root);
    write_file(path, "0\n");
    snprintf(path, sizeof path, "%s/cpu1/topology/physical_package_id", root);
    write_file(path, "1\n");
    int core, socket, node;
    cpu_topology(root, 1, &core, &socket, &node);
    ok(core == 0 && socket == 1 && node == 1, "cpu1 is core 0 of socket 1 on node 1, as the made-up sysfs says");
    cpu_topology(root, 2, &core, &socket, &node);
    ok(core == -1 && socket == -1 && node == -1, "a CPU sysfs says nothing about is unknown, not 0");
    static const char *const made[] = {"cpu1/topology/core_id", "cpu1/topology/physical_package_id", "cpu1/topology",
                                       "cpu1/node1", "cpu1", ""};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, made[i]);
        if (unlink(path) != 0)
            rmdir(path);
    }

    /* Four bound threads: 0 and 2 on core 0 of socket 0 (same core id as
     * thread 1's core on socket 1, which is another core). */
    ThreadPlace bound[4] = {
        {0, 0, 0, 0, 0, 0, 1, 1}, {1, 4, 0, 1, 1, 1, 1, 1}, {2, 8, 0, 0, 0, 2, 1, 1}, {3, 5, 1, 1, 1, 3, 1, 1}};
    TeamPlacement tp = {1, 4, bound, 4, 4, 0, 0, {-1, -1}};
    summarize_team_placement(&tp);
    ok(tp.shared_core_threads == 2 && tp.first_shared[0] == 0 && tp.first_shared[1] == 2,
       "threads 0 and 2 share core 0 of socket 0; core 0 of socket 1 is another core");
    ok(tp.unbound_threads == 0, "threads allowed on one core each are bound");

    ThreadPlace loose[2] = {{0, 0, 0, 0, 0, -1, 2, 2}, {1, 0, 0, 0, 0, -1, 2, 2}};
    TeamPlacement tl = {1, 2, loose, 2, 2, 0, 0, {-1, -1}};
    summarize_team_placement(&tl);
    ok(tl.unbound_threads == 2, "threads allowed on two cores are counted unbound");
    ok(tl.shared_core_threads == 0, "unbound threads met on one CPU by chance are not reported as sharing it");
    return done_testing();
}
