#!/usr/bin/env bash
# NUMA placement: every --numa policy computes exactly what first touch does,
# the locality report describes this machine, bad nodes are refused by name,
# and a clomp built without libnuma refuses --numa but works otherwise.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
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

    run_clomp "${args[@]}"
    reference=$(checksums "$out")
    is "$rc" 0 "the default (first-touch) run verifies"
    is "$(printf '%s\n' "$reference" | grep -c .)" 5 "it prints the five checksums the policies are compared by"
    like "$out" $'\n''   NUMA placement: first-touch' "the header names the first-touch placement"
    like "$out" $'\n'"       NUMA nodes: $nodes"$'\n' "the report counts the machine's $nodes NUMA node(s)"
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
        like "$out" $'\n'"   NUMA placement: $policy" "the header names the $policy placement"
    done

    OMP_PROC_BIND=close run_clomp --numa=local "${args[@]}"
    [[ $out != *"threads are not bound"* ]]
    ok $? "with OMP_PROC_BIND set there is no unbound-threads warning"
    unset OMP_PROC_BIND
    run_clomp "${args[@]}"
    like "$out" "WARNING: threads are not bound" "unbound threads get a warning that locality can change mid-run"

    run_clomp --numa=node:"$nodes" "${args[@]}"
    is "$rc" 2 "node:$nodes, one past the last node, is refused with exit 2"
    like "$err" "^clomp: --numa: node $nodes does not exist.*nodes: 0" "the message lists the nodes that exist"
    [ -z "$out" ]
    ok $? "nothing is printed or allocated before the refusal"

    run_clomp 2 2 4 200000 32 1 1
    like "$out" "NUMA sampling: 4 parts larger than 1024 pages were sampled evenly" \
        "parts larger than 1024 pages are sampled, and the report says so"
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
