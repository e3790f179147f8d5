#!/usr/bin/env bash
# NUMA placement: every --numa policy computes exactly what first touch does,
# the locality report describes this machine, bad nodes are refused by name,
# and a clomp built without libnuma refuses --numa but works otherwise.
# The page-layout runs measure only Serial Ref (--schedules=serial): clomp
# measures locality after the mesh build, before any timed run, and their
# tiny meshes (4 or 8 zones) would otherwise run 125,000+ iterations of
# every schedule.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
tmp=$(mktemp -d) || exit 255
trap 'rm -rf "$tmp"' EXIT

json_get() {  # json_get FILE EXPR: EXPR of l = the JSON's numa.locality
    python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["numa"]["locality"]; print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
# --nested=2x1: on 2 threads Nested OMP is N/A by default; the policies are
# compared in every schedule all the same.
args=(--nested=2x1 2 2 16 400 32 1 1)

checksums() {  # every Checksum line of the output, names included
    printf '%s\n' "$1" | grep ' Checksum: '
}

if "$CLOMP" --version | grep -q '^libnuma: yes'; then
    nodes=$(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' 2>/dev/null | wc -l)
    [ "$nodes" -ge 1 ] || nodes=1

    # Unbound threads (OMP_PROC_BIND unset) in this reference run: its report
    # also carries the unbound-threads warning checked below.
    unset OMP_PROC_BIND
    run_clomp "${args[@]}"
    unbound_out=$out
    reference=$(checksums "$out")
    is "$rc" 0 "the default (first-touch) run verifies"
    is "$(printf '%s\n' "$reference" | grep -c .)" 5 "it prints the five checksums the policies are compared by"
    like "$out" '^   NUMA placement: first-touch' "the header names the first-touch placement"
    like "$out" "^       NUMA nodes: $nodes\$" "the report counts the machine's $nodes NUMA node(s)"
    like "$out" "NUMA threads: 0@cpu[0-9]+/node[0-9]+ 1@cpu[0-9]+/node[0-9]+ " \
        "the report gives the CPU and node of both static-schedule threads"
    like "$out" "NUMA pages/node: node 0: [1-9]" "the report counts zone pages per node"
    if [ "$nodes" -eq 1 ]; then
        like "$out" "NUMA locality: 100\\.0% of zone pages on the node of the thread that computes them" \
            "on a single-node machine every zone page is local"
    else
        skip "on a single-node machine every zone page is local" "this machine has $nodes nodes"
    fi

    for policy in interleave node:0 local first-touch; do
        run_clomp --numa="$policy" "${args[@]}"
        is "$rc" 0 "--numa=$policy runs and verifies"
        is "$(checksums "$out")" "$reference" "--numa=$policy gives checksums identical to first touch in every schedule"
        like "$out" "^   NUMA placement: $policy" "the header names the $policy placement"
    done

    OMP_PROC_BIND=close run_clomp --numa=local "${args[@]}"
    [[ $out != *"threads are not bound"* ]]
    ok $? "with OMP_PROC_BIND set there is no unbound-threads warning"
    like "$unbound_out" "WARNING: threads are not bound" "unbound threads get a warning that locality can change mid-run"

    run_clomp --numa=node:"$nodes" "${args[@]}"
    is "$rc" 2 "node:$nodes, one past the last node, is refused with exit 2"
    like "$err" "^clomp: --numa: node $nodes does not exist.*nodes: 0" "the message lists the nodes that exist"
    [ -z "$out" ]
    ok $? "nothing is printed or allocated before the refusal"

    run_clomp --schedules=serial 2 2 4 200000 32 1 1
    like "$out" "NUMA sampling: 4 parts larger than 1024 pages were sampled evenly" \
        "parts larger than 1024 pages are sampled, and the report says so"

    # Distinct pages, from the arena's documented layout (docs/numa.md): a
    # fresh page-aligned mapping, pieces rounded up to 64 bytes and carved
    # in allocation order; with allocThreads 1 that is every Part record
    # (72 bytes, CLOMP 1.2's) in part order, then every zone block.
    page=$(getconf PAGESIZE)
    for input in "4 1" "4 256" "64 10"; do
        read -r parts zones <<<"$input"
        records=$((parts * 128)) block=$(((zones * 32 + 63) / 64 * 64))
        want=$(((records + parts * block - 1) / page - records / page + 1))
        want_records=$(((records - 1) / page + 1))
        run_clomp --schedules=serial --numa=node:0 --json="$tmp/pages.json" 1 1 "$parts" "$zones" 32 1 1
        got=$(json_get "$tmp/pages.json" '"%d %d %d %d" % (l["queried_pages"], l["part_records"]["pages"], l["part_records"]["records"], l["part_records"]["local_records"])')
        is "$got" "$want $want_records $parts $parts" \
            "$parts parts of $zones zones packed in one arena: $want distinct zone pages, not one per part and page; their $parts Part records on $want_records page(s), all local"
        like "$out" "NUMA locality: 100\\.0% of zone pages .*\\($want of $want distinct pages; " \
            "the text line says it counts $want distinct pages"
        like "$out" "^NUMA part records: 100\\.0% of the $parts Part records \\(written every subcycle .*on $want_records distinct page" \
            "and the Part records get a line of their own"
    done
    # First touch: 8 blocks of 32 bytes, 256 bytes written one after another
    # by one thread, lie on at most 2 pages (on main: 8, one per part).
    run_clomp --schedules=serial --json="$tmp/pages.json" 1 1 8 1 32 1 1
    got=$(json_get "$tmp/pages.json" 'l["queried_pages"]')
    [ -n "$got" ] && [ "$got" -le 2 ]
    ok $? "8 one-zone parts (256 bytes) by first touch lie on at most 2 distinct pages (got $got)"
else
    run_clomp --numa=interleave "${args[@]}"
    is "$rc" 2 "a clomp built without libnuma refuses --numa=interleave with exit 2"
    like "$err" "built without libnuma; install libnuma-dev and rebuild" "and says how to get it"
    run_clomp --numa=first-touch "${args[@]}"
    is "$rc" 2 "it refuses even --numa=first-touch: no NUMA option is silently ignored"
    run_clomp "${args[@]}"
    is "$rc" 0 "without --numa it runs and verifies"
    like "$out" "NUMA locality: not measured \\(clomp built without libnuma\\)" "its report says locality was not measured"
fi

run_clomp --numa=nodes "${args[@]}"
is "$rc" 2 "--numa=nodes is refused with exit 2"
like "$err" "^clomp: --numa: 'nodes' is not first-touch, interleave, local or node:N" "naming the choices"

done_testing
