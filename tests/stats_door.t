#!/usr/bin/env bash
# Statistics behind one door (issue 46, item 3): the reporting side asks
# clomp-stats through one `clomp-stats batch` process per report, whatever
# the number of figures: `make plots` on a suite whose target input ran as
# six processes (the golden suite and four more of its key runs) starts it
# at most twice (a stand-in clomp-stats counts its starts), and the batch
# answers each request byte for byte as clomp-stats alone does, refusals
# included, without ending.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (the reports are the results package's)"; exit 0; }
stats=${CLOMP_STATS:-$top/build/clomp-stats}
[ -x "$stats" ] || make -C "$top" --no-print-directory -s clomp-stats >&2
[ -x "$stats" ] || stats=$top/build/clomp-stats
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

# The batch against one process a request: the same bytes, and a refusal is one request's.
requests=$(printf '%s\n' $'summary\t--json\t0.5\t0.25\t0.75\t1\t2\t0.5\t0.6' $'compare\t--json\t--level\t0.95\t1,2,3,4,5,6\t2,3,4,5,6,7' \
    $'compare\t--level\t7\t1,2\t3,4' $'holm\t--json\t0.05\t0.01,0.2,0.03' $'judge\t--json\t200\tcore\tunknown\tunknown\t150\t160' \
    $'plan\t--json\t5\t0.05' $'summary\t--json\t1\t2\t3')
want=''
while IFS=$'\t' read -r -a words; do
    one=$("$stats" "${words[@]}" 2>&1 </dev/null)
    want+="$one"$'\n'"#end $?"$'\n'
done <<<"$requests"
got=$("$stats" batch <<<"$requests")
is "$?" 0 "clomp-stats batch answers every request and ends at the end of its input"
is "$(grep -c '^#end ' <<<"$got")" 7 "one answer a request, each ended by its exit status"
is "$got" "${want%$'\n'}" "each answer is the bytes clomp-stats alone writes for it (a refused --level and its status 2 too)"
got=$("$stats" batch <<<$'outliers\nsummary\t--json\t1\t2\t3')
like "$got" $'^clomp-stats: batch: \'outliers\' is not a request of a batch [^\n]*\n#end 2\n\\{"n": 3, .*\n#end 0$' \
    "outliers, which reads its own request document, is refused in a batch, and the next request is answered"

# The golden suite (a suite from before the manifest: the converter's) with four more processes
# of its target input (runs 9-12: copies of runs 1 and 2).
suite=$root/suite
cp -r "$top/tests/golden/suite" "$suite"
rm -f "$suite/README.md"
# As a quiet node would have left it: its processes give their figures (tests/python/bundle_lib.py).
python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); from bundle_lib import quiet_node; quiet_node(sys.argv[2])' \
    "$top/tests/python" "$suite"
name=CLOMP_vm_1
sed -i 's/^plan: \(.*\)$/plan: \1key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;key||2 -1 64 100 32 1 1;/' "$suite/$name.env"
for k in 9 10 11 12; do
    cp "$suite/${name}_key.run$(((k % 2) + 1)).json" "$suite/${name}_key.run$k.json"
    echo "$k" >>"$suite/$name.done"
done
# The driver's record of each run (the golden suite predates .runs.csv): every run ended OK.
sed -n 's/^plan: //p' "$suite/$name.env" | tr ';' '\n' | grep '|' |
    awk -F'|' 'BEGIN { print "run,set,numa,status,exit_code,seconds" } { print NR "," $1 ",first-touch,OK,0,1.0" }' >"$suite/$name.runs.csv"
cat >"$root/counting-stats" <<EOF
#!/bin/sh
echo "\$1" >>"$root/starts"
exec "$stats" "\$@"
EOF
chmod +x "$root/counting-stats"
(cd "$top" && CLOMP_STATS=$root/counting-stats make --no-print-directory plots OUT="$suite/$name" >"$root/plots.out" 2>&1)
is "$?" 0 "make plots on the suite of six target processes"
like "$(cat "$suite/${name}_key.processes.txt")" "6 of 6 processes" "its between-process table has medians of the six (the statistics were asked)"
starts=$(grep -c . "$root/starts" 2>/dev/null)
ok "$([ "${starts:-0}" -ge 1 ] && [ "${starts:-0}" -le 2 ]; echo $?)" "make plots started clomp-stats at most twice, whatever the figures ($starts: $(sort "$root/starts" | uniq -c | tr -s ' \n' ' '))"
done_testing
