#!/usr/bin/env bash
# The offload builds (make OFFLOAD=host|nvptx, docs/offload.md). In the
# default build: no offload row, and --offload-device is refused (exit 2,
# one line). In an offload build (make OFFLOAD=host check): Offload OMP is an
# optional row verified bit for bit against Serial Ref; every output names
# the device (the host plugin as no accelerator); clomp runs with
# OMP_TARGET_OFFLOAD=mandatory whatever the environment said; the launch
# overhead per subcycle is Offload OMP's us/Loop minus Dev Bestcase's; a
# device result that differs in one zone fails verification (fault build);
# the target probes run; bad offload options exit 2 with one line. The nvptx
# binary on a node without a GPU refuses to fall back to the host (exit 3),
# and its PTX holds no f64 multiply that ptxas could fuse into an fma.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 255
trap 'rm -rf "$tmp"' EXIT
input=(2 1 16 400 32 1 1)   # CLOMP 1.2's target shape: 6400 zones, 1570 subcycles

offload_kind=$("$CLOMP" --version | sed -n 's/^offload: \([a-z0-9]*\).*/\1/p')
if [ "$offload_kind" = no ]; then
    schedule_list '' '' 1 | grep -qx offload
    ok $((!$?)) "a build without offload lists no offload schedule"
    run_clomp --offload-device=0 "${input[@]}"
    is "$rc $(line_count "$err")" "2 1" "--offload-device in a build without offload exits 2 with one line"
    like "$err" "^clomp: --offload-device: this clomp has no offload; build it with make OFFLOAD=host" "naming the build"
else
    is "$(schedule_list '' optional 1 | grep -x 'offload\|offload_bestcase' | paste -sd' ' -)" "offload_bestcase offload" \
        "the $offload_kind build lists Dev Bestcase and Offload OMP as optional rows"
    is "$(schedule_list checked '' 2 | grep -c '^Offload OMP$')" 1 "Offload OMP is a checked schedule"

    # A run with the environment asking for a host fallback: clomp overrides it.
    OMP_TARGET_OFFLOAD=disabled run_clomp --schedules=bestcase,offload_bestcase,offload \
        --csv="$tmp/run.csv" --json="$tmp/run.json" "${input[@]}"
    is "$rc" 0 "Offload OMP runs and verifies (OMP_TARGET_OFFLOAD=disabled in the environment)"
    serial=$(sed -n 's/^ *Serial Ref Checksum: //p' <<<"$out")
    is "$(sed -n 's/^ *Offload OMP Checksum: //p' <<<"$out")" "${serial:-<no Serial Ref checksum>}" \
        "Offload OMP's checksum is Serial Ref's"
    like "$out" "Offload OMP   Verify: passed \(every zone of every part bit-identical to Serial Ref after each of" \
        "Offload OMP is verified bit for bit after every chunk"
    like "$out" "OpenMP env: OMP_TARGET_OFFLOAD=mandatory" "clomp ran with OMP_TARGET_OFFLOAD=mandatory"
    like "$out" "Offload device: .*; OMP_TARGET_OFFLOAD=mandatory \(set by clomp, was disabled\)" \
        "the header says what the environment had asked"
    if [ "$offload_kind" = host ]; then
        like "$out" "Offload device: host plugin \(x86_64\), not an accelerator: device 0 of [1-9]" \
            "the header names the host plugin as no accelerator"
        like "$out" "Offload OMP   Launch: .*\(host plugin: no accelerator\)" "the launch figure says it too"
    fi
    # The CSV: the device on every row; the launch overhead on Offload OMP's
    # row only, equal to its runtime us/Loop minus Dev Bestcase's.
    check=$(python3 - "$tmp/run.csv" <<'PY'
import csv, sys
rows = {r["key"]: r for r in csv.DictReader(open(sys.argv[1]))}
devices = {r["offload_device"] for r in rows.values()}
launch = {k: r["offload_launch_us_per_subcycle"] for k, r in rows.items() if r["offload_launch_us_per_subcycle"]}
want = float(rows["offload"]["runtime_us_per_loop"]) - float(rows["offload_bestcase"]["runtime_us_per_loop"])
print(len(devices), list(devices)[0] != "", sorted(launch), abs(float(launch.get("offload", "nan")) - want) < 1e-9 * max(1, abs(want)))
PY
)
    is "$check" "1 True ['offload'] True" \
        "the CSV names the device on every row and the launch overhead (Offload OMP - Dev Bestcase) on Offload OMP's"
    like "$(cat "$tmp/run.json")" '"offload_device": "[^"]+"' "the JSON names the device"

    # Bad offload options: one line, exit 2.
    run_clomp --offload-device=4095 "${input[@]}"
    is "$rc $(line_count "$err")" "2 1" "--offload-device beyond the node's devices exits 2 with one line"
    like "$err" "^clomp: --offload-device=4095: this node has [0-9]+ offload devices? \(0\.\.[0-9]+\)$" "naming the range"
    run_clomp --offload-device=gpu0 "${input[@]}"
    is "$rc $(line_count "$err")" "2 1" "--offload-device=gpu0 exits 2 with one line"
    like "$err" "^clomp: --offload-device: 'gpu0' is not a device number 0\.\.4095$" "naming the text"

    # A device result one bit off in one zone fails verification.
    if [ -x "${CLOMP_FAULTS_BIN:-}" ]; then
        out=$(CLOMP_FAULT=device-zone "$CLOMP_FAULTS_BIN" --schedules=offload "${input[@]}" 2>"$tmp/fault.err")
        rc=$?
        is "$rc" 1 "a device result that differs in one zone fails verification (exit 1)"
        like "$out" "Offload OMP VERIFY FAILED: part 8 zone 1\.\.400 zone values differ from Serial Ref" \
            "the failure names the part the device altered"
        like "$(cat "$tmp/fault.err")" "clomp-faults: device-zone armed in Offload OMP" "the fault was armed in Offload OMP"
        out=$(CLOMP_FAULT=device-zone "$CLOMP_FAULTS_BIN" --schedules=static,offload_bestcase "${input[@]}" 2>/dev/null)
        is "$?" 0 "the device fault changes nothing in schedules that do not offload the update"
    else
        skip "a device result that differs in one zone fails verification" "no fault build at ${CLOMP_FAULTS_BIN:-<unset>}"
    fi

    # The target probes: every row of kind target runs, map rows per byte count.
    is "$("$CLOMP" --list-constructs | awk -F'\t' '$3 == "target" { print $1 }' | paste -sd' ' -)" \
        "target target_teams target_teams_dpf target_nowait target_map_to target_map_from target_map_tofrom target_map_alloc target_atomic target_reduction target_teams_parallel target_teams_parallels" \
        "--list-constructs has the twelve target probes (EPCC's target-offload methods), kind target"
    run_clomp --constructs=target,target_teams,target_teams_dpf,target_nowait,target_map_to,target_map_from,target_map_tofrom \
        --construct-chunks=8,65536 --construct-reps=3 --construct-time=200 "${input[@]}"
    is "$rc" 0 "the target probes run (mandatory offload: a host fallback would have failed them)"
    for row in 'TARGET ' 'TARGET TEAMS ' 'TARGET TDPF ' 'TARGET NOWAIT ' 'MAP TO 8 ' 'MAP FROM 65536 ' 'MAP TOFROM 65536 '; do
        # A figure, or (a busy machine, issue 35) unresolved with why: never a bare dash.
        like "$out" $'\n'"$row +1 +1x2 +([0-9.]+ | +- unresolved: [0-9a-z])" "the table has ${row% } at level 1 with a figure, or unresolved with its reason"
    done
    run_clomp --constructs=target_map_alloc,target_atomic,target_reduction,target_teams_parallel,target_teams_parallels \
        --construct-chunks=8,65536 --construct-sizes=1,243 --construct-reps=3 --construct-time=200 "${input[@]}"
    is "$rc" 0 "the probes of atomics, array-section reduction, map(alloc) and teams with inner parallel regions run, their checks passed"
    for row in 'MAP ALLOC 8 ' 'MAP ALLOC 65536 ' 'TARGET ATOMIC ' 'TARGET REDUCTION 1 ' 'TARGET REDUCTION 243 ' \
        'TEAMS 1 PARALLEL ' 'TEAMS N PARALLEL '; do
        like "$out" $'\n'"$row +1 +1x2 +([0-9.]+ | +- unresolved: [0-9a-z])" "the table has ${row% } at level 1 with a figure, or unresolved with its reason"
    done
    # Each of those bodies without what its construct promises (fault build:
    # an atomic counter or a reduced section never mapped back, an alloc that
    # copies back, teams without their inner parallel region): its untimed
    # check must end the run.
    if [ -x "${CLOMP_FAULTS_BIN:-}" ]; then
        missed=()
        for key in target_atomic target_reduction target_map_alloc target_teams_parallel target_teams_parallels; do
            err=$(CLOMP_FAULT=construct-wrong CLOMP_FAULT_CONSTRUCT=$key "$CLOMP_FAULTS_BIN" --constructs=$key \
                --construct-chunks=64 --construct-sizes=9 --construct-reps=3 --construct-time=100 "${input[@]}" 2>&1 >/dev/null)
            rc=$?
            [ "$rc" -eq 1 ] && [[ $err == *"its body does the wrong thing"* ]] || missed+=("$key (exit $rc: $err)")
        done
        is "${missed[*]}" "" "each of the five new target bodies without its construct's effect ends the run: exit 1, 'its body does the wrong thing'"
    else
        skip "the new target probes' checks catch a wrong body" "no fault build at ${CLOMP_FAULTS_BIN:-<unset>}"
    fi

    # The suite adds the offload runs for a binary with a device, and says so.
    plan=$("$here/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --no-constructs --calibrate=off --out "$tmp/suite" "$CLOMP" 2 2>&1)
    like "$plan" $'\n''Offload: 8 runs added \(Offload OMP, the crossover sweep, the target probes\) on ' \
        "the suite's dry run says it adds the offload runs, naming the device"
    [ "$offload_kind" != host ] || like "$plan" 'runs added .* on host plugin \(x86_64\), not an accelerator' "a host plugin named as such"
    is "$(grep -oE '^\[[0-9]+/[0-9]+\] offload[a-z_0-9]*' <<<"$plan" | awk '{ print $2 }' | paste -sd' ' -)" \
        "offload offload_zpp6 offload_zpp25 offload_zpp100 offload_zpp400 offload_zpp1600 offload_zpp6400 offload_probes" \
        "the plan: the target input, the crossover sweep from 1/16 to 64 times its zones per part, the probes"
    like "$plan" '\] offload_probes +[^ ]+ --constructs=target,[a-z_,]*target_teams_parallels --schedules=serial' \
        "the probe run names every target row"
    plan=$("$here/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --no-constructs --no-offload --calibrate=off --out "$tmp/suite" "$CLOMP" 2 2>&1)
    like "$plan" $'\n''Offload: no offload runs: --no-offload' "--no-offload leaves them out, and says so"
    ! grep -q '\] offload' <<<"$plan"
    ok $? "with none in the plan"

    # A quick suite with this binary: the offload runs recorded from their
    # JSON records into the report's Offload section; the device in .env.
    "$here/run_clomp.sh" --quick --max-zone-scale 1 --replicates 1 --no-constructs --calibrate=off --no-plots \
        --out "$tmp/suite" "$CLOMP" 2 </dev/null >"$tmp/suite.out" 2>"$tmp/suite.err"
    is "$?" 0 "a quick suite with the $offload_kind binary completes"
    base=''
    for f in "$tmp"/suite/CLOMP_*.env; do base=${f%.env}; done
    like "$(cat "$tmp/suite.out")" '^Offload: 8 runs added' "its header says the offload runs were added"
    if [ "$offload_kind" = host ]; then
        like "$(cat "$base.env" 2>/dev/null)" '^offload device: host plugin \(x86_64\), not an accelerator: device 0 of' \
            "its .env records the device as the runtime reported it, a host plugin marked"
    else
        like "$(cat "$base.env" 2>/dev/null)" '^offload device: ' "its .env records the device"
    fi
    html=$(cat "$base.html" 2>/dev/null)
    like "$html" '<h2 id="offload">Offload \(OpenMP target\)</h2>' "the report has an Offload section"
    like "$html" '<b>(crossover between [0-9]+ and [0-9]+ zones per part|crossover at or below [0-9]+ zones per part|no crossover in the range \(6\.\.6400 zones per part, 64 parts\))' \
        "stating the crossover with its bracket, or that there is none in the range"
    is "$(grep -c '^<tr><td class="num zpp">[0-9]*</td>' <<<"$html")" 6 "with one row per swept size"
    like "$html" 'Offload OMP: ([0-9.e+-]+ (\[[0-9.e+-]+, [0-9.e+-]+\]|\(no interval\)) us/Loop|no figure \([a-z])' \
        "and Offload OMP's median with its interval (none at --quick's few chunks, said so), or why it has no figure"
    # The probe rows: in the driver's table of the probe run, and in the report.
    want="MAP ALLOC 4096|MAP ALLOC 524288|MAP ALLOC 8|MAP FROM 4096|MAP FROM 524288|MAP FROM 8|MAP TO 4096|MAP TO 524288|MAP TO 8|MAP TOFROM 4096|MAP TOFROM 524288|MAP TOFROM 8|TARGET|TARGET ATOMIC|TARGET NOWAIT|TARGET REDUCTION 1|TARGET REDUCTION 243|TARGET REDUCTION 59049|TARGET TDPF|TARGET TEAMS|TEAMS 1 PARALLEL|TEAMS N PARALLEL"
    got=$(python3 - "$base.target_constructs.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["level"] == "1"]
print("|".join(sorted(r["construct_name"] for r in rows)))
PY
)
    is "$got" "$want" "the probe run's table (<base>.target_constructs.csv) has the 22 target rows at level 1"
    for row in 'TARGET ATOMIC' 'TEAMS N PARALLEL' 'MAP ALLOC 4096' 'TARGET REDUCTION 243'; do
        like "$html" "<tr><td>$row</td><td class=\"(num|undecided)\">" "the report's probe table has $row"
    done
fi

# A binary without offload, or whose device is missing, adds no offload run, and the dry run says why.
if [ "$offload_kind" = no ]; then
    plan=$("$here/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --no-constructs --calibrate=off --out "$tmp/suite" "$CLOMP" 2 2>&1)
    like "$plan" $'\n''Offload: no offload runs: this binary has no offload \(make OFFLOAD=host.nvptx.amdgcn builds one\)' \
        "the suite's dry run with a binary without offload says so"
fi

# The nvptx binary without a GPU: no host fallback.
nvptx=${CLOMP_NVPTX:-$here/clomp-offload-nvptx}
if [ -x "$nvptx" ] && command -v readelf >/dev/null 2>&1; then
    ! readelf -d "$nvptx" | grep -q TEXTREL
    ok $? "the nvptx binary has no text relocations (linked -no-pie: gcc 12's crtoffloadtable.o is not PIC; docs/offload.md)"
fi
if [ -x "$nvptx" ] && command -v strings >/dev/null 2>&1; then
    # The PTX travels in the binary as text. An unrounded mul.f64 may be fused
    # with the following add/sub into an fma by ptxas when the driver loads it:
    # on an H200 that put Offload OMP's zones 1-2 ulp off Serial Ref's.
    ptx_ops=$(strings -n 4 "$nvptx" | grep -oE '^[[:space:]]*(mul|fma)(\.[a-z]+)*\.f64' | sed 's/^[[:space:]]*//' | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')
    is "$(grep -c 'mul\.f64' <<<"$ptx_ops")" 0 "the nvptx binary's device code has no unrounded f64 multiply ptxas could fuse (found: $ptx_ops)"
    like "$ptx_ops" 'fma\.rn\.f64 [1-9]' "its kernel's product is an explicitly rounded fma.rn.f64 (offload/device_product.h)"
fi
if [ ! -x "$nvptx" ]; then
    skip "the nvptx binary refuses a host fallback" "no $nvptx (make OFFLOAD=nvptx; needs Debian's gcc-offload-nvptx)"
elif nvidia-smi -L >/dev/null 2>&1; then
    skip "the nvptx binary refuses a host fallback" "this node has an NVIDIA GPU"
else
    out=$("$nvptx" "${input[@]}" 2>"$tmp/nvptx.err")
    rc=$?
    is "$rc $(line_count "$(cat "$tmp/nvptx.err")")" "3 1" "the nvptx binary without a GPU exits 3 with one line"
    like "$(cat "$tmp/nvptx.err")" "^clomp: no device: host fallback refused" "saying no device: host fallback refused"
    is "$(line_count "$out")" 0 "and prints no figures"
    plan=$("$here/run_clomp.sh" --dry-run --quick --max-zone-scale 1 --no-constructs --calibrate=off --out "$tmp/suite" "$nvptx" 2 2>&1)
    like "$plan" $'\n''Offload: no offload runs: the nvptx build.s device is missing: clomp: no device: host fallback refused' \
        "a suite with the nvptx binary and no GPU adds no offload run, and says why"
fi

done_testing
