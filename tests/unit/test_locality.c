/* The locality arithmetic: sampling of large blocks, distinct pages (a page
 * parts share counted once), Part records, per-node page counts and the
 * local percentage, on synthetic placements of several nodes. */
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

    /* Three parts, computed on nodes 0, 1, 1, on pages 10..13 (node of page
     * 10+i: 0, 0, 1, -14): part 0 on pages 10-11, part 1 on 11-12 (page 11
     * shared with part 0), part 2 on 12-13 (page 12 shared with part 1). */
    PartLocality part[3] = {{0, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 0, 0, 0, 0}, {2, 2, 1, 0, 0, 0, 0}};
    static char mem[32];   /* page i: mem + i (only addresses are compared) */
    PageRef refs[] = {{mem + 13, 2, -14}, {mem + 11, 1, 0}, {mem + 12, 2, 1},
                      {mem + 10, 0, 0}, {mem + 11, 0, 0}, {mem + 12, 1, 1}};
    sort_page_refs(refs, 6);
    ok(refs[0].page == mem + 10 && refs[1].page == mem + 11 && refs[1].part == 0 && refs[2].part == 1 &&
           refs[5].page == mem + 13,
       "refs sort by page, then part: a shared page's first ref is its lowest-numbered part");
    LocalityFigures f = {0};
    long unknown = 0;
    tally_zone_pages(refs, 6, part, 3, 3, &f, &unknown);
    ok(f.queried_pages == 4 && f.known_pages == 3 && unknown == 1,
       "4 distinct pages (not 6 part/page pairs): 3 placed, 1 the kernel could not place");
    ok(f.shared_pages == 2, "pages 11 and 12 are each shared by two parts");
    ok(f.pages_per_node[0] == 2 && f.pages_per_node[1] == 1, "pages per node count each page once (2 on node 0, 1 on node 1)");
    ok(f.local_pages == 3, "pages 10 and 11 (counted with part 0, node 0) and 12 (part 1, node 1) are local: 3 of 3");
    ok(part[1].known_pages == 2 && part[1].local_pages == 1 && part[1].counted_known == 1 && part[1].counted_local == 1,
       "part 1 touches 2 pages (1 local) but only page 12 counts with it");
    ok(part[2].known_pages == 1 && part[2].local_pages == 1 && part[2].counted_known == 0,
       "part 2's placed page 12 counts with part 1, its unplaced page 13 nowhere");
    ok(part[0].counted_known + part[1].counted_known + part[2].counted_known == f.known_pages,
       "the parts' counted pages add up to the distinct total");

    /* Records: part 0's on page 20 (node 0), part 1's on pages 20-21 (0, 1),
     * part 2's on page 21 (1): records 0 and 2 local, record 1 straddles. */
    PageRef rec[] = {{mem + 20, 0, 0}, {mem + 20, 1, 0}, {mem + 21, 1, 1}, {mem + 21, 2, 1}};
    RecordLocality r = {0};
    tally_record_pages(rec, 4, part, 3, &r);
    ok(r.records == 3 && r.known_records == 3 && r.local_records == 2,
       "3 records, 2 local: a record is local only when all its pages are");
    ok(r.pages == 2 && r.pages_per_node[0] == 1 && r.pages_per_node[1] == 1, "they lie on 2 distinct pages, one per node");
    ok(r.percent > 66.66 && r.percent < 66.67, "records: 2 of 3 local, 66.7%%");

    PageSpan spans[] = {{5, 9}, {0, 2}, {2, 4}, {7, 8}, {20, 20}};
    ok(distinct_span_pages(spans, 5) == 11, "spans 0-2, 2-4, 5-9, 7-8, 20 cover 11 distinct pages");
    ok(locality_percent(0, 4) == 0.0, "a part entirely on other nodes is 0%% local");
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
