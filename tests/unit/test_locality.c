/* The locality arithmetic: sampling of large blocks, per-node page counts and
 * the local percentage, on synthetic placements of several nodes. */
#include "measure/locality.h"
#include "numa/placement.h"
#include "tap.h"

int main(void)
{
    ok(sampled_page_count(10, 1024) == 10, "a block of 10 pages is queried page by page");
    ok(sampled_page_count(5000, 1024) == 1024, "a block of 5000 pages is sampled at 1024 pages");
    int spread = 1, inside = 1;
    for (long k = 0; k < 1024; k++) {
        long i = sampled_page_index(k, 1024, 5000);
        inside &= i >= 0 && i < 5000;
        if (k > 0)
            spread &= i > sampled_page_index(k - 1, 1024, 5000);
    }
    ok(inside && spread, "sampled pages are distinct, increasing and inside the block");
    ok(sampled_page_index(0, 1024, 5000) == 0 && sampled_page_index(1023, 1024, 5000) >= 4990,
       "sampling covers the block from its first page to its last");

    /* Four nodes; a thread on node 1 computing a part spread over nodes 0..3. */
    int pages[] = {1, 1, 1, 0, 2, 3, 1, -14, 1, 3};
    long per_node[4] = {0}, local = 0, unknown = 0;
    tally_pages(pages, 10, 1, 3, per_node, &local, &unknown);
    ok(per_node[0] == 1 && per_node[1] == 5 && per_node[2] == 1 && per_node[3] == 2,
       "pages are counted per node (1, 5, 1, 2 on nodes 0..3)");
    ok(local == 5, "the five pages on the computing thread's node 1 are local");
    ok(unknown == 1, "a page the kernel could not place (-EFAULT) is counted apart");
    ok(locality_percent(local, 10 - unknown) > 55.55 && locality_percent(local, 10 - unknown) < 55.56,
       "locality is 5 of 9 placed pages: 55.6%%");

    long more[4] = {0}, local2 = 0, unknown2 = 0;
    int remote[] = {0, 0, 2, 2};
    tally_pages(remote, 4, 1, 3, more, &local2, &unknown2);
    ok(local2 == 0 && locality_percent(local2, 4) == 0.0, "a part entirely on other nodes is 0%% local");
    ok(locality_percent(0, 0) < 0.0, "with no page placed nothing was measured: never 100%%");

    Placement p;
    char buf[32];
    ok(parse_placement("node:12", &p) == 0 && p.kind == PLACEMENT_NODE && p.node == 12 &&
           strcmp(placement_text(&p, buf, sizeof buf), "node:12") == 0,
       "node:12 parses and prints back as node:12");
    ok(parse_placement("interleave", &p) == 0 && p.kind == PLACEMENT_INTERLEAVE, "interleave parses");
    ok(parse_placement("local", &p) == 0 && p.kind == PLACEMENT_LOCAL, "local parses");
    ok(parse_placement("first-touch", &p) == 0 && p.kind == PLACEMENT_FIRST_TOUCH, "first-touch parses");
    ok(parse_placement("node:", &p) != 0 && parse_placement("node:x", &p) != 0 && parse_placement("node:-1", &p) != 0 &&
           parse_placement("node:01", &p) != 0 && parse_placement("nodes", &p) != 0,
       "node:, node:x, node:-1, node:01 and nodes are refused");
    return done_testing();
}
