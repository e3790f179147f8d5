#!/usr/bin/env bash
# clomp's OMPT tool (--ompt, docs/ompt.md): inert by default; on an OMPT
# runtime (LLVM libomp) the census of each warm-up matches what the schedule
# creates - worked out here from the inputs, not read off clomp's own plan -
# every measurement says a tool is attached, OMP_MAX_ACTIVE_LEVELS=1 shows as
# serialized inner regions, the sampler classifies every sample; on libgomp
# (no OMPT) the output says so and nothing fails. Bad --ompt values exit 2
# with one line.
#
# Which runtime: the binary's own record (ompt.runtime_started_tool in its
# JSON). The gcc build also runs on libomp here, as compare/ runs it: a
# private libgomp.so.1 -> libomp.so.5 first in LD_LIBRARY_PATH.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
tmp=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$tmp"' EXIT
unset OMP_TOOL OMP_TOOL_LIBRARIES OMP_MAX_ACTIVE_LEVELS OMP_NESTED
export OMP_WAIT_POLICY=passive

if ! command -v python3 >/dev/null 2>&1; then
    skip "the OMPT tool's census and samples" "python3 not installed"
    done_testing
fi
# An offload build's libomptarget starts the OpenMP runtime while the program
# loads, before clomp asks for its tool: --ompt attaches nothing there
# (docs/offload.md).
if "$CLOMP" --version | grep -Eq '^offload: (host|nvptx|amdgcn)'; then
    skip "the OMPT tool's census and samples" "an offload build: libomptarget starts the runtime before main"
    done_testing
fi

# json FILE EXPR: EXPR evaluated in python with d the document, printed.
json() {
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# 8000 zones: clomp sizes a run to a fixed number of zone updates, so 800 would run ten times the
# parallel regions (1.8 s of CPU for the census run on libomp, 0.4 s here; 80: 13 s); the census
# counts one warm-up iteration, the same on either mesh. The nested sampling run keeps 800
# zones: the sampler needs its CPU time for enough samples in the inner teams.
small=(2 1 8 1000 32 1 1)

# ---- bad use: one line, exit 2, nothing run -----------------------------------------------
for bad in bogus 'sampling,0' 'sampling,-5' 'sampling,abc' 'census,200' '' 'sampling,20000'; do
    run_clomp "--ompt=$bad" "${small[@]}"
    is "$rc" 2 "--ompt=$bad exits 2 (usage)"
    is "$(line_count "$err")" 1 "--ompt=$bad: one line on stderr"
    is "$out" "" "--ompt=$bad: nothing run, nothing printed"
done
like "$(run_clomp --ompt=bogus "${small[@]}"; printf '%s' "$err")" "^clomp: --ompt: 'bogus' is not none, trivial, census or sampling" \
    "the line names the option and the bad value"

# CLOMP_OMPT: the same values, for a --compare side; --ompt wins over it.
CLOMP_OMPT=bogus run_clomp "${small[@]}"
is "$rc" 2 "CLOMP_OMPT=bogus exits 2"
like "$err" "^clomp: CLOMP_OMPT: 'bogus' is not none" "and its one line names CLOMP_OMPT"
CLOMP_OMPT=trivial run_clomp --ompt=none --dry-run --json="$tmp/none.json" "${small[@]}"
is "$(json "$tmp/none.json" "d['ompt']['requested']")" none "--ompt=none wins over CLOMP_OMPT=trivial"
CLOMP_OMPT=sampling,50 run_clomp --dry-run --json="$tmp/env.json" "${small[@]}"
is "$(json "$tmp/env.json" "(d['ompt']['requested'], d['ompt']['sampling_rate_hz'])")" "('sampling', 50)" \
    "without --ompt, CLOMP_OMPT=sampling,50 asks for the sampler at 50 Hz"

# ---- the default: no tool ---------------------------------------------------------------------
run_clomp --schedules=static --json="$tmp/default.json" "${small[@]}"
is "$rc" 0 "a default run exits 0"
is "$(printf '%s\n' "$out" | grep -c 'OMPT')" 0 "a default run prints no OMPT line"
is "$(json "$tmp/default.json" "(d['ompt']['requested'], d['ompt']['tool_attached'])")" "('none', False)" \
    "its JSON: no tool requested, none attached"
is "$(json "$tmp/default.json" "sorted(set(str(m['ompt']) for m in d['measurements']))")" "['None']" \
    "its JSON: every measurement's ompt is null"

# ---- which runtime the binary runs on ------------------------------------------------------
run_clomp --ompt=census --dry-run --json="$tmp/probe.json" "${small[@]}"
is "$rc" 0 "--ompt=census --dry-run exits 0"
started=$(json "$tmp/probe.json" "d['ompt']['runtime_started_tool']")
runtime=$(json "$tmp/probe.json" "d['ompt']['runtime']")
note "$CLOMP runs on $runtime; it started the tool: $started"

# The same binary on libomp, when it runs on libgomp and LLVM's libomp is installed
# (not under the sanitizers: their runtime would have to load libomp as well).
libomp_env=()
if [ "$started" = True ]; then
    libomp_env=(env)
else
    lib=''
    for candidate in /usr/lib/llvm-*/lib/libomp.so.5; do [ ! -e "$candidate" ] || lib=$candidate; done
    if [ -n "$lib" ] && [ "$runtime" = libgomp ] && [ -z "${CLOMP_SANITIZED-}" ]; then
        mkdir -p "$tmp/libomp" && ln -s "$lib" "$tmp/libomp/libgomp.so.1"
        libomp_env=(env "LD_LIBRARY_PATH=$tmp/libomp${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
    fi
fi

# ---- libgomp: not provided, nothing fails ------------------------------------------------
if [ "$runtime" = libgomp ]; then
    run_clomp --ompt=census --schedules=static --json="$tmp/gomp.json" --csv="$tmp/gomp.csv" "${small[@]}"
    is "$rc" 0 "on libgomp, --ompt=census runs and exits 0"
    like "$out" '^ +OMPT: not provided by this runtime \(libgomp\); --ompt=census has no effect$' \
        "on libgomp the set-up says: OMPT: not provided by this runtime (libgomp)"
    is "$(json "$tmp/gomp.json" "(d['ompt']['runtime_started_tool'], d['ompt']['tool_attached'])")" "(False, False)" \
        "its JSON: the runtime never called ompt_start_tool, no tool attached"
    is "$(python3 -c 'import csv, sys; print(sorted(set(r["ompt_tool"] for r in csv.DictReader(open(sys.argv[1])))))' \
        "$tmp/gomp.csv")" "['none']" "its CSV: ompt_tool is none on every row"
else
    skip "on libgomp: OMPT: not provided" "$CLOMP runs on $runtime"
fi

if [ ${#libomp_env[@]} -eq 0 ]; then
    skip "the census, the samples and the trivial tool on libomp" "no LLVM libomp to run $CLOMP on"
    done_testing
fi

# on_libomp ARGS...: runs clomp on libomp; rc, out, err as run_clomp.
on_libomp() {
    "${libomp_env[@]}" "$CLOMP" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
    rc=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}

# census_of FILE KEY: "level-1 regions/team min/team max level-2 regions/min/max serialized as-planned".
census_of() {
    json "$1" "' '.join(str(x) for m in d['measurements'] if m['key'] == '$2' for c in [m['ompt']['census']] \
for x in [c['levels'][0]['regions'], c['levels'][0]['team_min'], c['levels'][0]['team_max'], \
c['levels'][1]['regions'], c['levels'][1]['team_min'], c['levels'][1]['team_max'], \
c['levels'][0]['serialized'] + c['levels'][1]['serialized'], c['plan']['matched']])"
}

# ---- census of the default schedules at 2 threads --------------------------------------------
on_libomp --ompt=census --json="$tmp/census.json" "${small[@]}"
is "$rc" 0 "on libomp, --ompt=census ${small[*]} exits 0"
like "$out" '^ +OMPT: census tool attached to libomp \(' "the set-up line says the census tool is attached to libomp"
ran=$(json "$tmp/census.json" "sum(1 for m in d['measurements'] if m['selected'])")
is "$(printf '%s\n' "$out" | grep -c '     OMPT: census tool attached: these figures include its cost$')" "$ran" \
    "every one of the $ran measurements says the tool is attached and its figures include its cost"
is "$(json "$tmp/census.json" "sorted(set(m['ompt']['figures_include_tool_cost'] for m in d['measurements'] if m['selected']))")" \
    "[True]" "the JSON says so on every measurement"
# What each schedule creates in one warm-up iteration (10 subcycles), from its pseudocode:
# a region per subcycle for the parallel-for schedules and probes, one region for the
# whole chunk for the SPMD ones, none for the serial ones.
for key in static dynamic parallel parallel_for; do
    is "$(census_of "$tmp/census.json" "$key")" "10 2 2 0 0 0 0 True" \
        "$key: 10 regions of 2 threads at level 1 per iteration, none nested, as planned"
done
for key in bestcase manual barrier; do
    is "$(census_of "$tmp/census.json" "$key")" "1 2 2 0 0 0 0 True" "$key: one region of 2 threads for the warm-up's chunk"
done
for key in serial calc_deposit; do
    is "$(census_of "$tmp/census.json" "$key")" "0 0 0 0 0 0 0 True" "$key: no parallel region"
done
# gcc computes a schedule(static) loop's bounds inline, with no call the runtime could report.
if "$CLOMP" --version | grep -q '^compiler: Clang'; then
    is "$(json "$tmp/census.json" "[m['ompt']['census']['loops'] for m in d['measurements'] if m['key'] == 'static'][0]")" 20 \
        "static: 20 worksharing loops begun (10 regions x 2 threads)"
else
    skip "static: 20 worksharing loops begun" "gcc inlines schedule(static): the runtime sees no loop"
fi
is "$(grep -c 'OMPT census' <<<"$out")" 0 "no census warning when every schedule ran as planned"

# ---- nested, 4 threads on 2 cores: 2x2 teams at level 2 -------------------------------------
nested=(--schedules=nested 4 1 8 1000 32 1 1)
on_libomp --ompt=census --json="$tmp/nested.json" "${nested[@]}"
is "$rc" 0 "on libomp, --ompt=census ${nested[*]} exits 0"
is "$(census_of "$tmp/nested.json" nested)" "10 2 2 20 2 2 0 True" \
    "Nested OMP at 4 threads: 10 outer regions of 2, 20 (10 x 2) inner regions of 2 at level 2"
is "$(json "$tmp/nested.json" "[m['ompt']['census']['levels'][1]['implicit_tasks'] for m in d['measurements'] if m['key'] == 'nested'][0]")" \
    40 "Nested OMP: 40 inner implicit tasks (20 regions x 2 threads)"

OMP_MAX_ACTIVE_LEVELS=1 on_libomp --ompt=census --json="$tmp/serial.json" "${nested[@]}"
is "$rc" 0 "with OMP_MAX_ACTIVE_LEVELS=1 the nested run still exits 0"
is "$(census_of "$tmp/serial.json" nested)" "10 2 2 20 1 1 20 False" \
    "with OMP_MAX_ACTIVE_LEVELS=1 the census shows the 20 inner regions serialized (teams of 1), not as planned"
like "$out" '^   Nested OMP  WARNING: OMPT census: 20 inner regions ran with 1 thread, 2 requested: serialized by the runtime$' \
    "a warning names the schedule and the numbers"

# ---- sampling ------------------------------------------------------------------------------
sampled=(--schedules=nested 4 1 8 100 32 1 1)
on_libomp --ompt=sampling,1000 --json="$tmp/sampling.json" --csv="$tmp/sampling.csv" "${sampled[@]}"
is "$rc" 0 "on libomp, --ompt=sampling,1000 exits 0"
like "$out" 'OMPT: sampling tool attached to libomp .*sampling at 1000 Hz of CPU time' "the set-up line states the rate"
samples=$(json "$tmp/sampling.json" "[(s['consistent'], s['unavailable'], s['inconsistent'], s['deepest_levels']) \
for m in d['measurements'] if m['key'] == 'nested' for s in [m['ompt']['samples']]][0]")
note "Nested OMP samples (consistent, unavailable, inconsistent, deepest levels): $samples"
read -r consistent inconsistent deepest < <(tr -d '(),' <<<"$samples" | awk '{ print $1, $3, $4 }')
ok "$([ "$consistent" -gt 0 ] && echo 0 || echo 1)" "the sampler found consistent samples in Nested OMP"
is "$deepest" 2 "in Nested OMP's 2x2 teams the sampler walked up two levels of parallel regions (deepest_levels 2), no more"
warned=$(grep -c '^   Nested OMP  WARNING: OMPT sampling: .* inconsistent, most at ancestor level' <<<"$out")
is "$warned" "$([ "$inconsistent" -gt 0 ] && echo 1 || echo 0)" "a warning names the level exactly when a sample was inconsistent"
is "$(grep -c '^   Nested OMP  Samples: ' <<<"$out")" 1 "the block prints its samples"

# ---- trivial, and the standard switch ------------------------------------------------------------
skip_unless_full_lane "the trivial tool; OMP_TOOL=disabled" || done_testing
on_libomp --ompt=trivial --schedules=static --json="$tmp/trivial.json" "${small[@]}"
is "$rc" 0 "on libomp, --ompt=trivial exits 0"
is "$(json "$tmp/trivial.json" "sorted(set((m['ompt']['tool'], str(m['ompt']['census'])) for m in d['measurements'] if m['selected']))")" \
    "[('trivial', 'None')]" "the trivial tool is attached to every measurement and takes no census"

OMP_TOOL=disabled on_libomp --ompt=census --schedules=static "${small[@]}"
is "$rc" 0 "with OMP_TOOL=disabled, --ompt=census still runs"
like "$out" '^ +OMPT: not provided by this runtime \(libomp\), OMP_TOOL=disabled; --ompt=census has no effect$' \
    "with OMP_TOOL=disabled the runtime never starts the tool, and the set-up says so"

# ---- the tool tax between processes: run_clomp.sh --ompt-tax ------------------------------------
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "$started" = True ]; then
    tax_side=$CLOMP
elif [ "$CLOMP" = "$top/clomp" ]; then
    tax_side=libomp
else
    tax_side=''
fi
tax_out=$("$top/run_clomp.sh" --ompt-tax --replicates 1 2>&1)
is "$?" 2 "--ompt-tax --replicates 1 is bad usage (exit 2)"
like "$tax_out" '^run_clomp.sh: --replicates' "and says which option"
if [ -n "$tax_side" ]; then
    refused=$("$top/run_clomp.sh" --ompt-tax --side "$tax_side" --replicates 2 --out "$tmp/refused" --schedules=barrier \
        "${small[@]}" 2>&1)
    is "$?:$(wc -l <<<"$refused"):$([ -e "$tmp/refused" ] && echo made)" "2:1:" \
        "--ompt-tax with 2 pairs without --force is refused in one line before anything runs (exit 2), as --compare is"
    tax_out=$("$top/run_clomp.sh" --ompt-tax --side "$tax_side" --replicates 2 --out "$tmp/tax" --schedules=barrier --force \
        "${small[@]}" 2>"$tmp/tax.err")
    is "$?" 0 "--ompt-tax --side $tax_side --replicates 2 exits 0"
    tax_csv=$(ls "$tmp"/tax/*_ompt_tax.csv 2>/dev/null)
    is "$(tail -n 1 <<<"$tax_out")" "Files: ${tax_csv%.csv}.txt $tax_csv ${tax_csv%.csv}.d/" "its last line names its files"
    # A figure no pair of a comparison gave as a result (busy or invalid processes: on a loaded node, all of
    # them) is no row: the report names it instead, with its reasons.
    is "$(python3 - "$tax_csv" "${tax_csv%.csv}.txt" <<'EOF_TAX'
import csv, re, sys
rows = set(r["figure"] for r in csv.DictReader(open(sys.argv[1])) if r["trivial_ratio"] and r["sampling_ratio"])
named = " ".join(line for line in open(sys.argv[2]) if line.startswith("Not in the table: "))
want = [("OMP Barrier us/Loop (median chunk)", "omp_barrier_median_us_per_loop"),
        ("Serial Ref us/Loop (median chunk)", "serial_ref_median_us_per_loop"),
        ("system CPU seconds", "system_cpu_seconds"), ("user CPU seconds", "user_cpu_seconds")]
print([name for name, key in want if name not in rows and not re.search(r"\b%s \(" % key, named)])
EOF_TAX
)" "[]" "its CSV has a trivial and a sampling ratio for every figure the runs measure, or its report names the figure as no pair's result"
    is "$(grep -c '^=== process .*side B' "$tmp"/tax/*_ompt_tax.d/sampling/*_compare.full)" 2 \
        "the sampling comparison ran 2 processes with the tool"
    like "$tax_out" '^OMP Barrier +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' "and the table of samples has the barrier's"
else
    skip "--ompt-tax on libomp" "no libomp side for $CLOMP"
fi

done_testing
