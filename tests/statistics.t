#!/usr/bin/env bash
# Chunked timing and its statistics: --trials splits each timed run into
# verified chunks without changing a single checksum, --rounds repeats the
# sequence, and the Spread/Median/Med. Ovh/Cycles lines, the LLNL targets, the
# summary and the JSON document (--json) agree with the chunk times they come
# from; --schedules, --quiet, --ghz, --dry-run and bad option values. The
# oracles are computed here (awk, python3), never copied from clomp's output.
# No timing value is asserted (the CI machine is noisy): only structure,
# consistency and arithmetic. CLOMP 1.2's single shot: tests/output-format.t.
# The quick lane runs --rounds=3 with --trials=3 (replacing an older file) for
# both the rounds and the repeated fixed chunks; the full lane runs --rounds=3
# on calibrated chunks and --rounds=2 --trials=3 apart. The default chunking
# is the --json=- run (its text on stderr) in both.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
# Idle threads sleep instead of spinning: on a loaded 2-core machine spinning
# threads make every barrier many times slower (the answers do not change).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

# 4 threads: Nested OMP needs 2x2 (below that it is N/A, see output-format.t).
args=(4 1 16 400 32 1 1)   # 6400 zones, 156 iterations: few parallel regions, so quick even oversubscribed
read -r _ _ numParts zonesPerPart _ flopScale timeScale <<<"${args[*]}"
# The measurements of the default sequence, from the table (clomp --list-schedules).
mapfile -t names < <(schedule_list '' default)
SUMMARY='----------- Comma-delimited summary ----------'
TARGETS='----------- LLNL targets (in CPU cycles) ----------'

if ! tmp=$(mktemp -d); then
    echo "Bail out! mktemp -d failed"
    exit 255
fi
trap 'rm -rf "$tmp"' EXIT
"$CLOMP" --list-schedules >"$tmp/schedules.tsv"

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

# ---- helpers ------------------------------------------------------------------------
# The line numbers (1-based) of the lines of TEXT that start with the literal PREFIX.
lines_starting() {  # lines_starting TEXT PREFIX
    printf '%s\n' "$1" | awk -v p="$2" 'substr($0, 1, length(p)) == p { print NR }'
}

# The measurement names of the blocks of a report, in order (from their Started lines).
block_names() {
    printf '%s\n' "$1" | sed -n 's/^ *\(.*[^ ]\)  Started: .*/\1/p'
}

# The chunk plan, from the documented rule: N iterations in K chunks of N/K
# whole iterations, the first N%K chunks one longer; cumulative ends.
plan() {  # plan N K
    awk -v n="$1" -v k="$2" 'BEGIN {
        base = int(n / k); longer = n % k; done = 0; sep = ""
        for (c = 0; c < k; c++) { done += base + (c < longer ? 1 : 0); printf "%s%d", sep, done; sep = " " }
        print ""
    }'
}

# The scaled iteration count: ceil(1e6 x timeScale / (numParts x zonesPerPart x flopScale)).
iterations=$(awk -v n="$numParts" -v z="$zonesPerPart" -v f="$flopScale" -v t="$timeScale" \
    'BEGIN { x = 1e6 * t / (n * z * f); i = int(x); if (i < x) i++; print i }')

# The JSON checker: python3 prints one line per check, "STATUS<TAB>DESC[<TAB>DETAIL]".
cat >"$tmp/check.py" <<'PY'
import json, math, statistics, sys

import os

# The table (clomp --list-schedules): the default sequence is what a run
# without --schedules reports, in table order.
TABLE = [line.rstrip('\n').split('\t') for line in open(os.path.join(os.path.dirname(sys.argv[0]), 'schedules.tsv'))
         if not line.startswith('#')]
NAMES = [row[1] for row in TABLE if row[4] == 'default']
ROLES = {row[1]: row[2] for row in TABLE}
INPUT_KEYS = ['numThreads', 'allocThreads', 'numParts', 'zonesPerPart', 'zoneSize', 'flopScale', 'timeScale']
label = ''


def report(good, desc, detail=''):
    desc = f'{label}: {desc}' if label else desc
    print(f'{0 if good else 1}\t{desc}\t{detail}'.replace('\n', ' '))


def close(a, b, rel=1e-9, scale=0.0):
    """a and b agree to rel of the larger of their magnitudes (or of scale)."""
    if a is None or b is None:
        return False
    return abs(a - b) <= rel * max(abs(a), abs(b), abs(scale)) + 1e-300


def plan(n, k):
    base, longer, done, ends = n // k, n % k, 0, []
    for c in range(k):
        done += base + (1 if c < longer else 0)
        ends.append(done)
    return ends


def role(name):
    return ROLES.get(name, 'checked')


def content(path, rounds, args):
    """Every figure of a complete run (all schedules) recomputed from its chunk times."""
    d = json.load(open(path, encoding='utf-8'))
    args = [int(a) for a in args]
    report((d.get('schema'), d.get('schema_version'), d.get('status'), d.get('exit_status'), d.get('failure'))
           == ('clomp-result', 1, 'ok', 0, None),
           'the document says schema clomp-result, schema_version 1, status ok, exit_status 0, no failure',
           f"{d.get('schema')} {d.get('schema_version')} {d.get('status')} {d.get('exit_status')}")
    inputs = d.get('inputs', {})
    got = [inputs.get(k) for k in INPUT_KEYS]
    report(got == args and inputs.get('rounds') == rounds,
           f'inputs echo the seven arguments {" ".join(map(str, args))} and rounds {rounds}', f'{got} rounds {inputs.get("rounds")}')
    ms = d.get('measurements', [])
    report([m.get('name') for m in ms] == NAMES, 'the measurements of the default sequence come in table order',
           str([m.get('name') for m in ms]))
    if [m.get('name') for m in ms] != NAMES:
        return
    by = {m['name']: m for m in ms}
    res = d['resolved']
    n, k = res['iterations'], res['trials']
    sub = res['subcycles']
    report(1 <= k <= min(20 if inputs.get('trials') is None else 10000, n) and
           res['chunk_end_iterations'] == plan(n, k) and n * 10 == sub,
           f'resolved.chunk_end_iterations is the documented split of {n} iterations into {k} chunks',
           f"{res['chunk_end_iterations']}")
    sizes = [e - s for s, e in zip([0] + plan(n, k)[:-1], plan(n, k))]
    bad = []
    for m in ms:
        want = [n] if m['name'] == 'calc_deposit' else sizes
        if not m['selected'] or len(m['rounds']) != rounds or [r['round'] for r in m['rounds']] != list(range(1, rounds + 1)):
            bad.append(f"{m['name']}: {len(m['rounds'])} rounds")
        for r in m['rounds']:
            if [c['iterations'] for c in r['chunks']] != want:
                bad.append(f"{m['name']} round {r['round']}: {[c['iterations'] for c in r['chunks']]}")
    report(not bad, f'every measurement has {rounds} round(s) of {k} chunks of the planned sizes (calc_deposit: one '
           'chunk, timed whole)', '; '.join(bad[:3]))
    bad = [f"{m['name']} {c}" for m in ms for r in m['rounds'] for c in r['chunks']
           if not close(c['us_per_loop'], c['seconds'] * 1e6 / (c['iterations'] * 10))]
    report(not bad, 'every chunk: us_per_loop = seconds x 1e6 / (iterations x 10)', '; '.join(bad[:3]))
    bad = []
    for m in ms:
        for r in m['rounds']:
            if not close(r['runtime_seconds'], sum(c['seconds'] for c in r['chunks'])):
                bad.append(f"{m['name']} round {r['round']} runtime {r['runtime_seconds']}")
            if not close(r['median_us_per_loop'], statistics.median(c['us_per_loop'] for c in r['chunks'])):
                bad.append(f"{m['name']} round {r['round']} median {r['median_us_per_loop']}")
    report(not bad, "every round: runtime_seconds is the sum of its chunks' seconds, median_us_per_loop the median "
           "of their us_per_loop", '; '.join(bad[:3]))
    bad = []
    for m in ms:
        us = [c['us_per_loop'] for r in m['rounds'] for c in r['chunks']]
        st = m['statistics']
        if not (st['n'] == len(us) and close(st['median'], statistics.median(us)) and st['min'] == min(us)
                and st['max'] == max(us) and st['min'] <= st['median'] <= st['max']):
            bad.append(f"{m['name']}: n {st['n']} median {st['median']} min {st['min']} max {st['max']} vs "
                       f"{len(us)} {statistics.median(us)} {min(us)} {max(us)}")
    report(not bad, 'statistics n, min, max and median are those of all chunks of all rounds', '; '.join(bad[:3]))
    bad = [m['name'] for m in ms if not close(m['us_per_loop'], m['statistics']['median'])]
    report(not bad, "each measurement's us_per_loop is its median chunk us/Loop", ' '.join(bad))
    bad = [f"{m['name']} {m['runtime_seconds']}" for m in ms
           if not close(m['runtime_seconds'], statistics.median(sum(c['seconds'] for c in r['chunks']) for r in m['rounds']))]
    report(not bad, "runtime_seconds is the median over rounds of each round's total", '; '.join(bad))
    best = by['Bestcase OMP']
    serial = by['Serial Ref']
    # Not a result (issue 35): Runtime us/Loop (the mean over the chunks: the
    # round's total over its subcycles, median over rounds) beyond 2x the median
    # chunk either way, or faster than Bestcase beyond the overhead's interval.
    bad = []
    for m in ms:
        mean = statistics.median(sum(c['seconds'] for c in r['chunks']) for r in m['rounds']) * 1e6 / sub
        ratio = mean / m['us_per_loop'] if m['us_per_loop'] else 1.0
        if (ratio > 2 or ratio < 0.5) and (m['valid'] is not False or 'the mean over its chunks' not in m['invalid_reason']):
            bad.append(f"{m['name']}: mean {mean:.4g} is {ratio:.3g}x the median, valid {m['valid']}")
        if not (ratio > 2 or ratio < 0.5) and m['valid'] is False:
            diffs = [statistics.median(c['us_per_loop'] for c in r['chunks']) -
                     statistics.median(c['us_per_loop'] for c in b['chunks'])
                     for r, b in zip(m['rounds'], best['rounds'])]
            if 'faster than Bestcase OMP' not in m['invalid_reason'] or not statistics.median(diffs) < 0:
                bad.append(f"{m['name']}: invalid ({m['invalid_reason']}), mean/median {ratio:.3g}")
        if (m['valid'] is False) != (m['invalid_reason'] is not None):
            bad.append(f"{m['name']}: valid {m['valid']}, reason {m['invalid_reason']!r}")
    report(not bad, 'valid is false exactly when the mean and median chunk differ beyond 2x (or, with a reason '
           'saying so, the schedule beat Bestcase), with the reason', '; '.join(bad))

    def void(m, base):   # no figure of m against base: one of them is not a result
        return m['valid'] is False or base['valid'] is False
    bad = []
    for m in ms:
        if role(m['name']) == 'checked' and void(m, best):
            if m['overhead_us_per_loop'] is not None or m['efficacy_percent'] is not None:
                bad.append(f"{m['name']}: not a result, yet overhead {m['overhead_us_per_loop']}")
        elif role(m['name']) == 'checked':
            diffs = [statistics.median(c['us_per_loop'] for c in r['chunks']) -
                     statistics.median(c['us_per_loop'] for c in b['chunks'])
                     for r, b in zip(m['rounds'], best['rounds'])]
            if not close(m['overhead_us_per_loop'], statistics.median(diffs), scale=m['us_per_loop']):
                bad.append(f"{m['name']}: {m['overhead_us_per_loop']} vs {statistics.median(diffs)}")
        elif m['name'] != 'Bestcase OMP' and m['overhead_us_per_loop'] is not None:
            bad.append(f"{m['name']} has an overhead")
    report(not bad, 'overhead_us_per_loop of each checked schedule is the median over rounds of (its round median '
           "- Bestcase OMP's round median); no overhead for the others", '; '.join(bad))
    bad = []
    for m in ms:
        if role(m['name']) in ('checked', 'reference', 'bestcase') and void(m, serial):
            if m['speedup'] is not None:
                bad.append(f"{m['name']} speedup {m['speedup']}, not a result")
        elif role(m['name']) in ('checked', 'reference'):
            if m['speedup'] is None or not close(m['speedup'], serial['us_per_loop'] / m['us_per_loop']):
                bad.append(f"{m['name']} speedup {m['speedup']}")
        if role(m['name']) in ('checked', 'bestcase') and void(m, best):
            if m['efficacy_percent'] is not None:
                bad.append(f"{m['name']} efficacy {m['efficacy_percent']}, not a result")
        elif role(m['name']) in ('checked', 'bestcase'):
            # One round: Bestcase's median over this one's. Several: the median over
            # rounds of that ratio per round, paired like the overhead.
            if len(m['rounds']) == 1 or m['name'] == 'Bestcase OMP':
                want = best['us_per_loop'] / m['us_per_loop'] * 100
            else:
                want = statistics.median(b['median_us_per_loop'] / r['median_us_per_loop'] * 100
                                         for b, r in zip(best['rounds'], m['rounds']))
            if m['efficacy_percent'] is None or not close(m['efficacy_percent'], want):
                bad.append(f"{m['name']} efficacy {m['efficacy_percent']} vs {want}")
        if role(m['name']) == 'probe' and (m['speedup'], m['efficacy_percent']) != (None, None):
            bad.append(f"{m['name']} (a probe) has a speedup or efficacy")
    report(not bad, "speedup is Serial Ref's us_per_loop over the schedule's, efficacy Bestcase's over it x 100 (per round, median over rounds); none where either is not a result",
           '; '.join(bad))
    total = serial['checksum']['total'] if serial['checksum'] else None
    report(total is not None and abs(total - sub) <= 1e-3,
           f'Serial Ref checksum total is the {sub} subcycles (each deposits 1)', str(total))
    bad = [m['name'] for m in ms if role(m['name']) == 'checked' and m['checksum'] != serial['checksum']]
    bad += [m['name'] for m in ms if role(m['name']) in ('probe', 'bestcase') and m['checksum'] is not None]
    report(not bad, "each checked schedule's checksum equals Serial Ref's exactly; probes and Bestcase have none",
           ' '.join(bad))
    want = {'reference': 'reference', 'checked': 'passed', 'bestcase': 'skipped', 'probe': 'not applicable'}
    bad = [f"{m['name']}: {m['verification']}" for m in ms
           if m['verification']['result'] != want[role(m['name'])] or m['verification']['verified_chunks'] !=
           (k * rounds if role(m['name']) in ('reference', 'checked') else 0)]
    report(not bad, f'Serial Ref and the checked schedules verified {k} chunks x {rounds} round(s) = {k * rounds}; '
           'Bestcase skipped, probes not applicable', '; '.join(bad))


def get(path, expr):
    d = json.load(open(path, encoding='utf-8'))
    by = {m['name']: m for m in d.get('measurements', [])}
    print(eval(expr, {'d': d, 'by': by, 'math': math, 'statistics': statistics, 'plan': plan}))


def check(path, expr, desc):
    d = json.load(open(path, encoding='utf-8'))
    by = {m['name']: m for m in d.get('measurements', [])}
    try:
        good = bool(eval(expr, {'d': d, 'by': by, 'math': math, 'statistics': statistics, 'close': close,
                                'plan': plan, 'role': role, 'NAMES': NAMES}))
        detail = '' if good else f'false: {expr}'
    except Exception as e:  # a missing key is a failed check, not a crash
        good, detail = False, f'{type(e).__name__}: {e}'
    report(good, desc, detail)


mode = sys.argv[1]
if mode == 'content':
    label = sys.argv[2]
    content(sys.argv[3], int(sys.argv[4]), sys.argv[5:])
elif mode == 'get':
    get(sys.argv[2], sys.argv[3])
elif mode == 'check':
    check(sys.argv[2], sys.argv[3], sys.argv[4])
elif mode == 'serve':
    # Requests on stdin, each MODE, FILE, EXPR and DESC ended by a NUL; each
    # answered by "RC\n" (0, or 1 where it raised), what get or check prints
    # (or the traceback), and a NUL.
    import io
    import traceback
    pending, fields = b'', []
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        *parts, pending = (pending + chunk).split(b'\0')
        fields += [part.decode('utf-8') for part in parts]
        while len(fields) >= 4:
            (ask, path, expr, desc), fields = fields[:4], fields[4:]
            said, real, rc = io.StringIO(), sys.stdout, 0
            sys.stdout = said
            try:
                get(path, expr) if ask == 'get' else check(path, expr, desc)
            except Exception:
                rc = 1
                traceback.print_exc(file=said)
            finally:
                sys.stdout = real
            os.write(1, (f'{rc}\n' + said.getvalue().rstrip('\n')).encode('utf-8') + b'\0')
PY

# One python3 answers every pycheck and pyget (a start each cost about 0.1 s of
# CPU, some 50 of them): requests through a FIFO, each answered as check.py's
# check or get prints it in a process of its own.
py_req='' py_rep=''
if [ "$have_python" -eq 1 ] && mkfifo "$tmp/py.req" "$tmp/py.rep"; then
    python3 "$tmp/check.py" serve <"$tmp/py.req" >"$tmp/py.rep" 2>&1 &
    exec {py_req}>"$tmp/py.req" {py_rep}<"$tmp/py.rep"
fi
# py_ask MODE FILE EXPR [DESC]: sets py_rc and py_said, the checker's exit
# status and output for that request (1 and why where it gave none). The
# request is written by a subshell: a dead checker's SIGPIPE ends that, not the test.
py_rc=0 py_said=''
py_ask() {
    local reply=''
    if [ -n "$py_req" ] && (printf '%s\0%s\0%s\0%s\0' "$1" "$2" "$3" "${4-}" >&"$py_req") 2>/dev/null &&
        IFS= read -r -d '' reply <&"$py_rep"; then
        py_rc=${reply%%$'\n'*} py_said=${reply#*$'\n'}
    else
        py_rc=1 py_said="the python3 checker gave no answer (to $1 $2)"
    fi
}

# py_checks ARGS...: runs the checker (the one answering requests where
# py_served is set); each of its lines becomes one TAP result.
py_checks() {
    local result status desc detail pyrc
    if [ -n "${py_served-}" ]; then
        py_ask "$@"
        result=$py_said pyrc=$py_rc
    else
        result=$(python3 "$tmp/check.py" "$@" 2>&1)
        pyrc=$?
    fi
    while IFS=$'\t' read -r status desc detail; do
        [ -n "$status" ] || continue
        if [ "$status" = 0 ] || [ "$status" = 1 ]; then
            ok "$status" "$desc"
            [ "$status" = 0 ] || [ -z "$detail" ] || diag "$detail"
        fi
    done <<<"$result"
    if [ "$pyrc" -ne 0 ]; then
        ok 1 "the python3 JSON checks ($1 ${2-}) ran to the end"
        diag "$result"
    fi
}
# pycheck FILE EXPR DESC: one assertion, a python expression over the document d (by: measurements by name).
pycheck() {
    py_served=1 py_checks check "$@"
}
pyget() {  # pyget FILE EXPR: prints the value of EXPR
    py_ask get "$@"
    printf '%s\n' "$py_said"
}

# json_valid FILE DESC
json_valid() {
    if [ "$have_python" -eq 1 ]; then
        python3 -m json.tool "$1" >/dev/null 2>"$tmp/json.err"
        ok $? "$2"
        [ -s "$tmp/json.err" ] && diag "$(cat "$tmp/json.err")"
    else
        skip "$2" "no python3"
    fi
    return 0
}

# ---- 1. the same checksums however the run is chunked or repeated ------------------
run_clomp --trials=1 "${args[@]}"
is "$rc" 0 "--trials=1 (CLOMP 1.2's single shot) exits 0"
sums_single=$(grep 'Checksum:' <<<"$out")
like "$out" $'\n''           Trials: 1 chunk per timed run \(--trials\), timed whole as in CLOMP 1\.2; 1 round'$'\n' \
    "--trials=1 says each run is one chunk, timed whole as in CLOMP 1.2"
[[ $out != *'  Spread: '* && $out != *'  Median: '* && $out != *' Med. Ovh: '* ]]
ok $? "--trials=1 prints no Spread, Median or Med. Ovh lines (one sample per measurement)"
is "$(line_count "$sums_single")" 5 "--trials=1 prints five Checksum lines (Serial Ref and the four checked schedules)"

# The default chunking, its document on stdout (--json=-, checked in section 4) and its text on stderr.
run_clomp --json=- "${args[@]}"
json_rc=$rc json_out=$out json_err=$err
is "$rc" 0 "the default chunking (--json=-) exits 0"
is "$(grep 'Checksum:' <<<"$err")" "$sums_single" "the default chunking prints the same Checksum lines as --trials=1"
default_trials=$(sed -n 's/^           Trials: \([0-9]*\) chunks\{0,1\} per timed run (default: up to 20, each well above timer resolution).*/\1/p' <<<"$err")
[[ $default_trials =~ ^[0-9]+$ ]] && [ "$default_trials" -ge 1 ] && [ "$default_trials" -le 20 ] &&
    [ "$default_trials" -le "$iterations" ]
ok $? "the default Trials line says it chose between 1 and 20 chunks (at most the $iterations iterations)"

run_clomp --trials=7 --json="$tmp/t7.json" "${args[@]}"
t7_out=$out
is "$rc" 0 "--trials=7 exits 0"
is "$(grep 'Checksum:' <<<"$out")" "$sums_single" "--trials=7 prints the same Checksum lines as --trials=1"

if full_lane; then
    run_clomp --rounds=3 --json="$tmp/r3.json" "${args[@]}"
else   # the quick lane: one run is --rounds=3 and section 4's repeated fixed chunks replacing an older file
    printf 'an older result\n' >"$tmp/r3.json"
    run_clomp --rounds=3 --trials=3 --json="$tmp/r3.json" "${args[@]}"
fi
r3_out=$out
is "$rc" 0 "--rounds=3 exits 0"
is "$(grep 'Checksum:' <<<"$out")" "$sums_single" "--rounds=3 prints the same Checksum lines as --trials=1"

# ---- 2. the chunk plan of --trials=7 ------------------------------------------------------
k=7
short=$((iterations / k)) long=$((iterations / k + 1))
like "$t7_out" $'\n''           Trials: 7 chunks per timed run \(--trials\), '"$short-$long"' iterations each, each chunk verified; 1 round'$'\n' \
    "--trials=7 on $iterations iterations: the Trials line says 7 chunks of $short-$long iterations, each verified"
want_plan=$(plan "$iterations" "$k")
sizes=$(awk -v ends="$want_plan" 'BEGIN { n = split(ends, e, " "); p = 0; for (i = 1; i <= n; i++) { printf "%s%d", (i > 1 ? " " : ""), e[i] - p; p = e[i] } print "" }')
if [ "$have_python" -eq 1 ]; then
    is "$(pyget "$tmp/t7.json" '" ".join(map(str, d["resolved"]["chunk_end_iterations"]))')" "$want_plan" \
        "resolved.chunk_end_iterations is the plan (the first $((iterations % k)) of 7 chunks one iteration longer): $want_plan"
    is "$(pyget "$tmp/t7.json" 'd["resolved"]["chunk_end_iterations"][-1]')" "$iterations" \
        "the last chunk ends at the iteration count, $iterations"
    bad=$(pyget "$tmp/t7.json" '" ".join(m["name"].replace(" ", "_") for m in d["measurements"] if [c["iterations"] for c in m["rounds"][0]["chunks"]] != ([int(x) for x in "'"$sizes"'".split()] if m["name"] != "calc_deposit" else ['"$iterations"']))')
    is "$bad" "" "every measurement's rounds[0].chunks holds 7 chunks of $sizes iterations (calc_deposit: one of $iterations)"
    sums=$(pyget "$tmp/t7.json" 'sorted(set(sum(c["iterations"] for c in m["rounds"][0]["chunks"]) for m in d["measurements"]))')
    is "$sums" "[$iterations]" "in every measurement the chunks' iterations add up to $iterations"
else
    for d in "resolved.chunk_end_iterations is the plan" "the last chunk ends at the iteration count" \
        "every measurement's rounds[0].chunks holds 7 chunks" "the chunks' iterations add up to $iterations"; do
        skip "$d" "no python3"
    done
fi
spread_ok=0
for name in "${names[@]}"; do
    n=$(grep -c "^$(printf '%13s' "$name")   Spread: .* us/Loop, CV [0-9.]*%, outliers [0-9]* (7 chunks x 1 round)\$" <<<"$t7_out")
    m=$(grep -c "^$(printf '%13s' "$name")   Median: .* us/Loop, 95% CI .* \.\. " <<<"$t7_out")
    if [ "$name" = calc_deposit ]; then
        [ "$n" -eq 0 ] && [ "$m" -eq 0 ] || spread_ok=1
    else
        [ "$n" -eq 1 ] && [ "$m" -eq 1 ] || spread_ok=1
    fi
done
ok "$spread_ok" "--trials=7: every chunked block has one Spread line '(7 chunks x 1 round)' and one Median line with its 95% CI; calc_deposit (timed whole) has neither"

# ---- 3. more trials than iterations ---------------------------------------------------
run_clomp --trials=5000 "${args[@]}"
is "$rc" 0 "--trials=5000 on $iterations iterations exits 0"
like "$out" $'\n''           Trials: '"$iterations"' chunks per timed run \(--trials, reduced to one per iteration\), 1 iteration each, each chunk verified' \
    "--trials=5000 is reduced to $iterations chunks of 1 iteration, and the Trials line says so"
is "$(grep 'Checksum:' <<<"$out")" "$sums_single" "$iterations one-iteration chunks print the same Checksum lines as --trials=1"

# ---- 3b. probes keep their chunks long enough to time ---------------------------------------
# 6.4e5 zones: 2 iterations, so 2 chunks for everything verified; the probes
# time their minimum of 100 iterations (issue 35: 20 barriers were too few),
# in no more than the 2 chunks --trials asks for.
run_clomp --trials=2 --json="$tmp/few.json" 2 1 64 10000 32 1 1
is "$rc" 0 "--trials=2 on a 2-iteration input exits 0"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/few.json" 'all(len(m["rounds"][0]["chunks"]) == 2 for m in d["measurements"] if m["selected"] and m["role"] in ("reference", "checked", "bestcase"))' \
        "every verified measurement (and Bestcase) is timed in the run's 2 chunks"
    pycheck "$tmp/few.json" '[(m["selected"], m["unavailable"], m["rounds"]) for m in d["measurements"] if m["key"] == "nested"] == [(False, "needs at least 2x2 threads", [])]' \
        "on 2 threads Nested OMP is not run: unavailable, 'needs at least 2x2 threads', no rounds"
    pycheck "$tmp/few.json" 'all(1 <= len(m["rounds"][0]["chunks"]) <= 2 and sum(c["iterations"] for c in m["rounds"][0]["chunks"]) == 100 for m in d["measurements"] if m["role"] == "probe")' \
        "each probe uses at most the run's 2 chunks, which cover the probes' minimum of 100 iterations"
fi

# ---- 4. the JSON document --------------------------------------------------------------
json_valid "$tmp/t7.json" "--trials=7 --json=FILE writes valid JSON (python3 -m json.tool)"
json_valid "$tmp/r3.json" "--rounds=3 --json=FILE writes valid JSON"

if full_lane; then
    rk=2 rk_json=$tmp/r2.json
    printf 'an older result\n' >"$rk_json"
    run_clomp --rounds=2 --trials=3 --json="$rk_json" "${args[@]}"
    is "$rc" 0 "--rounds=2 --trials=3 --json=FILE exits 0"
else   # the --rounds=3 --trials=3 run of section 1, which replaced an older file
    rk=3 rk_json=$tmp/r3.json
fi
json_valid "$rk_json" "--rounds=$rk --json=FILE replaces an existing file with valid JSON"
leftovers=$(find "$tmp" -name '*.tmp.*' | wc -l | tr -d ' ')
is "$leftovers" 0 "no temporary JSON file is left next to the result"

rc=$json_rc out=$json_out err=$json_err   # the default chunking's run in section 1
printf '%s\n' "$out" >"$tmp/stdout.json"
json_valid "$tmp/stdout.json" "--json=- prints valid JSON, and nothing else, on stdout"
[[ $err == *'CORAL Benchmark Version 1.2'* && $err == *$'\n'"$SUMMARY"$'\n'* && $err == *$'\n''CORAL RFP, '* ]]
ok $? "--json=- sends the text report, header to summary and CORAL RFP line, to stderr"

if [ "$have_python" -eq 1 ]; then
    py_checks content "--trials=7" "$tmp/t7.json" 1 "${args[@]}"
    if full_lane; then py_checks content "--rounds=2 --trials=3" "$tmp/r2.json" 2 "${args[@]}"; fi
    py_checks content "--rounds=3" "$tmp/r3.json" 3 "${args[@]}"
    py_checks content "--json=-" "$tmp/stdout.json" 1 "${args[@]}"
    pycheck "$rk_json" 'd["inputs"]["trials"] == 3 and d["resolved"]["trials"] == 3 and d["inputs"]["ghz"] is None' \
        "--rounds=$rk --trials=3: inputs.trials and resolved.trials are 3, inputs.ghz is null"
else
    skip "JSON content checks" "no python3"
fi

# ---- 5. JSON escaping of what the environment holds ------------------------------------------
odd=$'quote" back\\slash tab\there nl\nthere ctl\x01 \xc3\xa9'
if [ "$have_python" -eq 1 ]; then
    GOMP_CLOMP_TEST_VALUE=$odd run_clomp --schedules=serial --trials=2 --json="$tmp/env.json" "${args[@]}"
    is "$rc" 0 "a run with an odd GOMP_ variable in the environment exits 0"
    json_valid "$tmp/env.json" "an OMP variable holding a quote, a backslash, a tab, a newline, 0x01 and UTF-8 still gives valid JSON"
    # (A checker of its own: it reads the variable from its environment.)
    GOMP_CLOMP_TEST_VALUE=$odd py_checks check "$tmp/env.json" \
        '__import__("os").environ["GOMP_CLOMP_TEST_VALUE"] == d["openmp_environment"]["GOMP_CLOMP_TEST_VALUE"]' \
        "openmp_environment.GOMP_CLOMP_TEST_VALUE reads back as the exact original string"
else
    skip "an odd GOMP_ variable gives valid JSON" "no python3"
fi

# ---- 6. the text report and the JSON agree ----------------------------------------------------
block_value() {  # block_value TEXT NAME KEY: the first number of the block line
    printf '%s\n' "$1" | sed -n "s|^$(printf '%13s %8s' "$2" "$3"): \([-0-9.]*\).*|\1|p" | head -n 1
}
summary_cell() {  # summary_cell TEXT ROW COLUMN(1-9)
    printf '%s\n' "$1" | awk -F', *' -v row="$2" -v c="$3" '$1 == row { v = $(c + 1); gsub(/ /, "", v); print v; exit }'
}
if [ "$have_python" -eq 1 ]; then
    for name in 'Static OMP' 'Serial Ref' 'OMP Barrier'; do
        is "$(block_value "$t7_out" "$name" us/Loop)" "$(pyget "$tmp/t7.json" '"%.2f" % by["'"$name"'"]["runtime_us_per_loop"]')" \
            "the $name block's us/Loop is CLOMP 1.2's, the JSON runtime_us_per_loop, to 2 decimals"
        is "$(block_value "$t7_out" "$name" us/Loop)" \
            "$(pyget "$tmp/t7.json" '"%.2f" % (by["'"$name"'"]["runtime_seconds"] * 1e6 / (d["resolved"]["iterations"] * 10))')" \
            "and that is the block's Runtime x 1e6 / (iterations x 10), as in CLOMP 1.2"
        is "$(block_value "$t7_out" "$name" Runtime)" "$(pyget "$tmp/t7.json" '"%.3f" % by["'"$name"'"]["runtime_seconds"]')" \
            "the $name block's Runtime is the JSON runtime_seconds to 3 decimals"
    done
    # An overhead of (or against) a measurement that is not a result is none (issue 35): N/A in its place.
    void='1 if by["NAME"]["valid"] is False or by["Bestcase OMP"]["valid"] is False else 0'
    if [ "$(pyget "$tmp/t7.json" "${void//NAME/Static OMP}")" = 1 ]; then
        is "$(summary_cell "$t7_out" Overhead 5)" "N/A" "Static OMP (or Bestcase OMP) is not a result (the JSON): its summary Overhead is N/A"
        like "$t7_out" "^   Static OMP Overhead: N/A \\(not a result: .* is invalid\\)" "and so is its block's Overhead, 1.2's"
        like "$t7_out" "^   Static OMP Med. Ovh: N/A \\(not a result" "and its Med. Ovh"
    else
        static_ovh=$(pyget "$tmp/t7.json" '"%.2f" % by["Static OMP"]["runtime_overhead_us_per_loop"]')
        is "$(summary_cell "$t7_out" Overhead 5)" "$static_ovh" "the summary Overhead of Static OMP is the JSON runtime_overhead_us_per_loop to 2 decimals"
        is "$(block_value "$t7_out" 'Static OMP' Overhead)" "$static_ovh" "the Static OMP block's Overhead is the same, 1.2's"
        is "$static_ovh" "$(pyget "$tmp/t7.json" '"%.2f" % (by["Static OMP"]["runtime_us_per_loop"] - by["Bestcase OMP"]["runtime_us_per_loop"])')" \
            "and it is Static OMP's us/Loop minus Bestcase OMP's, both from Runtime, as in CLOMP 1.2"
        is "$(summary_cell "$t7_out" us/Loop 5)" "$(pyget "$tmp/t7.json" '"%.2f" % by["Static OMP"]["runtime_us_per_loop"]')" \
            "the summary us/Loop of Static OMP is the JSON runtime_us_per_loop to 2 decimals"
        med_text=$(block_value "$t7_out" 'Static OMP' 'Med. Ovh')
        med_json=$(pyget "$tmp/t7.json" 'by["Static OMP"]["overhead_us_per_loop"]')
        med_half=$(pyget "$tmp/t7.json" '(lambda c: 0.5 * (c[1] - c[0]) if c else 0.005)(by["Static OMP"]["overhead_ci_95"])')
        awk -v a="$med_text" -v b="$med_json" -v h="$med_half" 'BEGIN { d = a - b; exit !(a != "" && d <= h && -d <= h) }'
        ok $? "the Static OMP block's Med. Ovh ($med_text) is the JSON's robust overhead_us_per_loop ($med_json), rounded to what its interval supports"
    fi
    if [ "$(pyget "$tmp/r3.json" "${void//NAME/Manual OMP}")" = 1 ]; then
        like "$r3_out" "^   Manual OMP Overhead: N/A \\(not a result" "--rounds=3: Manual OMP (or Bestcase OMP) is not a result (the JSON): its block's Overhead is N/A"
    else
        is "$(block_value "$r3_out" 'Manual OMP' Overhead)" "$(pyget "$tmp/r3.json" '"%.2f" % by["Manual OMP"]["runtime_overhead_us_per_loop"]')" \
            "--rounds=3: the Manual OMP block's Overhead is the JSON runtime_overhead_us_per_loop (from the median round's Runtime) to 2 decimals"
    fi
    ci_ok=0
    for name in 'Static OMP' 'Dynamic OMP' 'Manual OMP' 'Nested OMP'; do
        text=$(grep -c "^$(printf '%13s' "$name") Med. Ovh: .* us/Loop, 95% CI .*, within this process" <<<"$t7_out")
        json=$(pyget "$tmp/t7.json" '1 if by["'"$name"'"]["overhead_ci_95"] is not None else 0')
        [ "$text" = "$json" ] || { ci_ok=1; diag "$name: $text Med. Ovh line(s) with an interval, JSON interval: $json"; }
    done
    ok "$ci_ok" "each checked schedule's overhead line (the project's, Med. Ovh) gives an interval exactly when the JSON has its overhead_ci_95"
    pycheck "$tmp/t7.json" 'all((m["statistics"] is None or (m["statistics"]["median_ci_95"] is None) == (m["statistics"]["median_ci_scope"] is None)) and (m["overhead_ci_95"] is None) == (m.get("overhead_ci_scope") is None) for m in d["measurements"])' \
        "every JSON interval of a measurement has its scope beside it, and only an interval has one"
    pycheck "$tmp/t7.json" 'set(m["statistics"]["median_ci_scope"] for m in d["measurements"] if m["statistics"] and m["statistics"]["median_ci_scope"]) | set(m["overhead_ci_scope"] for m in d["measurements"] if m["overhead_ci_scope"]) == {"within this process"}' \
        "and that scope is always 'within this process'"
    pycheck "$tmp/t7.json" 'd["schema_version"] == 1 and d["schema_minor"] >= 1' "the document says schema_version 1, schema_minor 1 or later (members were added)"
    # CPU seconds: a process cannot use more CPU time than its wall time on every CPU it may use.
    cpus=$(nproc)
    pycheck "$tmp/t7.json" 'all(c["user_cpu_seconds"] >= 0 and c["system_cpu_seconds"] >= 0 and c["wall_seconds"] > 0 and c["user_cpu_seconds"] + c["system_cpu_seconds"] > 0 and c["user_cpu_seconds"] + c["system_cpu_seconds"] <= c["wall_seconds"] * '"$cpus"' + 0.05 and close(c["cpus_busy"], (c["user_cpu_seconds"] + c["system_cpu_seconds"]) / c["wall_seconds"]) for c in [d["process_cost"]])' \
        "process_cost holds user and system CPU seconds (> 0 together, at most wall x $cpus CPUs) and cpus_busy = CPU / wall"
    cost_line=$(grep '^Process CPU time: ' <<<"$t7_out")
    is "$cost_line" "$(pyget "$tmp/t7.json" '"Process CPU time: %.3f s user, %.3f s system, %.3f s wall (getrusage, every thread): %.1f CPUs busy on average" % (d["process_cost"]["user_cpu_seconds"], d["process_cost"]["system_cpu_seconds"], d["process_cost"]["wall_seconds"], d["process_cost"]["cpus_busy"])')" \
        "the text's Process CPU time line gives the JSON's process_cost"
else
    skip "the text report and the JSON agree" "no python3"
fi
# Every interval line of the text says what it covers.
interval_lines=$(grep -E '  Median: .*95% CI| Med. Ovh: .*95% CI|\(95% CI ' <<<"$t7_out")
bad=$(grep -vc 'within this process' <<<"$interval_lines")
[ "$(line_count "$interval_lines")" -ge 10 ] && [ "$bad" -eq 0 ]
ok $? "every Median, Med. Ovh and LLNL target interval line of the text (at least 10 here) says 'within this process'"
targets_at=$(lines_starting "$t7_out" "$TARGETS")
cost_at=$(lines_starting "$t7_out" 'Process CPU time: ')
summary_at=$(lines_starting "$t7_out" "$SUMMARY")
[ -n "$cost_at" ] && [ -n "$targets_at" ] && [ "$targets_at" -lt "$cost_at" ] && [ "$cost_at" -lt "$summary_at" ]
ok $? "the Process CPU time line comes after the LLNL targets and before the comma-delimited summary"

# ---- 7. --rounds=3: the sequence three times, then the blocks once -------------------------------
mapfile -t round_at < <(lines_starting "$r3_out" '            Round: ')
rounds_text=$(printf '%s\n' "$r3_out" | sed -n 's/^            Round: \([0-9]* of [0-9]*\) done in .*/\1/p' | tr '\n' ',')
is "$rounds_text" "1 of 3,2 of 3,3 of 3," "--rounds=3 prints 'Round: k of 3 done' for k = 1, 2, 3 in order"
first_block=$(lines_starting "$r3_out" "$(printf '%13s:| ' calc_deposit)" | head -n 1)
[ "${#round_at[@]}" -eq 3 ] && [ -n "$first_block" ] && [ "${round_at[2]}" -lt "$first_block" ]
ok $? "--rounds=3: the three Round lines come before the first block"
is "$(block_names "$r3_out" | tr '\n' ',')" "$(printf '%s,' "${names[@]}")" \
    "--rounds=3: after the rounds each of the ${#names[@]} blocks is printed once, in order"
summary_at=$(lines_starting "$r3_out" "$SUMMARY")
targets_at=$(lines_starting "$r3_out" "$TARGETS")
last_started=$(lines_starting "$r3_out" "$(printf '%13s  Started:' "${names[${#names[@]} - 1]}")")
[ -n "$targets_at" ] && [ -n "$summary_at" ] && [ -n "$last_started" ] && [ "$last_started" -lt "$targets_at" ] &&
    [ "$targets_at" -lt "$summary_at" ]
ok $? "--rounds=3: the blocks, then the LLNL targets, then the summary"
if [ "$have_python" -eq 1 ]; then
    r3_trials=$(pyget "$tmp/r3.json" 'd["resolved"]["trials"]')
    want=$((${#names[@]} - 1))   # every block but calc_deposit, timed whole
    got=$(grep -c "   Spread: .* ($r3_trials chunks\{0,1\} x 3 rounds)\$" <<<"$r3_out")
    is "$got" "$want" "--rounds=3: each chunked block's Spread line counts its $r3_trials chunk(s) x 3 rounds"
    pycheck "$tmp/r3.json" 'all(len(m["rounds"]) == 3 for m in d["measurements"])' "--rounds=3: every JSON measurement has 3 rounds"
else
    skip "--rounds=3: Spread lines count chunks x 3 rounds" "no python3"
fi

# ---- 8. cycles: --ghz, and the LLNL targets ---------------------------------------------------
run_clomp --ghz=2 --trials=7 --json="$tmp/ghz.json" "${args[@]}"
ghz_out=$out
is "$rc" 0 "--ghz=2 exits 0"
like "$ghz_out" $'\n''       Cycle rate: 2\.000 GHz \(--ghz\)'$'\n' "--ghz=2: the setup says '       Cycle rate: 2.000 GHz (--ghz)'"
like "$ghz_out" $'\n'"${TARGETS//[()]/.}"$'\n''Cycle rate: 2\.000 GHz \(--ghz\)'$'\n' "--ghz=2: the LLNL targets section opens with the same cycle rate"
barrier_line=$(grep '^Barrier latency (OMP Barrier): ' <<<"$ghz_out")
like "$barrier_line" '^Barrier latency \(OMP Barrier\): ([0-9]+ cycles( \(95% CI [0-9]+ \.\. [0-9]+, within this process\))?, target < 200 core cycles: (met|not met|undecided)( \(the interval straddles it\))? \(core cycles at --ghz=2\.000\)|N/A \(not a result: see the INVALID line\), target not judged)$' \
    "--ghz=2: the targets give 'Barrier latency (OMP Barrier): N cycles' (an interval says it is within this process), judged against < 200"
# A target on a measurement that is not a result reads "N/A (not a result ...), target not judged": invalid.
verdicts=$(sed -n "/^$TARGETS\$/,/^$SUMMARY\$/p" <<<"$ghz_out" | grep -E 'target < |target not judged' |
    sed 's/.*target < [0-9]* core cycles: //; s/ (core cycles at --ghz=[0-9.]*)$//; s/ (the interval straddles it)$//;
         s/.*target not judged$/invalid/')
bad_verdict=$(grep -cvE '^(met|not met|undecided|invalid)$' <<<"$verdicts")
[ "$(line_count "$verdicts")" -eq 2 ] && [ "$bad_verdict" -eq 0 ]
ok $? "--ghz=2: the two LLNL targets (barrier, parallel for) each get met, not met or undecided"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/ghz.json" 'd["cycles"]["source"] == "given" and d["cycles"]["ghz"] == 2 and d["inputs"]["ghz"] == 2' \
        "--ghz=2: the JSON cycles.source is 'given' with ghz 2, and inputs.ghz is 2"
    pycheck "$tmp/ghz.json" '(by["OMP Barrier"]["valid"] is False and d["llnl_targets"]["barrier_latency"]["cycles"] is None) or close(d["llnl_targets"]["barrier_latency"]["cycles"], by["OMP Barrier"]["statistics"]["median"] * 2000)' \
        "--ghz=2: llnl_targets.barrier_latency.cycles is the barrier's median us/Loop x 2000"
    pycheck "$tmp/ghz.json" '(by["Parallel For"]["valid"] is False and d["llnl_targets"]["parallel_for_overhead"]["cycles"] is None) or close(d["llnl_targets"]["parallel_for_overhead"]["cycles"], by["Parallel For"]["statistics"]["median"] * 2000)' \
        "--ghz=2: llnl_targets.parallel_for_overhead.cycles is the Parallel For probe's median x 2000 (EPCC's method)"
    pycheck "$tmp/ghz.json" '((by["Static OMP"]["overhead_us_per_loop"] is None and d["llnl_targets"]["static_overhead"]["cycles"] is None) or close(d["llnl_targets"]["static_overhead"]["cycles"], by["Static OMP"]["overhead_us_per_loop"] * 2000)) and "verdict" not in d["llnl_targets"]["static_overhead"]' \
        "--ghz=2: llnl_targets.static_overhead.cycles is Static OMP's overhead x 2000, shown without a verdict (not the target quantity)"
    pycheck "$tmp/ghz.json" '((by["OMP Parallel"]["valid"] is False and d["llnl_targets"]["fork_join"]["cycles"] is None) or close(d["llnl_targets"]["fork_join"]["cycles"], by["OMP Parallel"]["statistics"]["median"] * 2000)) and "verdict" not in d["llnl_targets"]["fork_join"]' \
        "--ghz=2: llnl_targets.fork_join.cycles is OMP Parallel's median x 2000, with no verdict (no LLNL target)"
    # The verdict rule: undecided when the interval straddles the target; otherwise
    # met when the interval's top (or the value, without one) lies below it.
    pycheck "$tmp/ghz.json" 'all(t["verdict"] == "invalid" if t["cycles"] is None else t["verdict"] == ("undecided" if t["cycles_ci_95"] and t["cycles_ci_95"][0] < t["target_below"] <= t["cycles_ci_95"][1] else "met" if (t["cycles_ci_95"][1] if t["cycles_ci_95"] else t["cycles"]) < t["target_below"] else "not met") for t in (d["llnl_targets"]["barrier_latency"], d["llnl_targets"]["parallel_for_overhead"]))' \
        "--ghz=2: each JSON verdict follows from its cycles, interval and target"
    is "$(tr '\n' ',' <<<"$verdicts")" "$(pyget "$tmp/ghz.json" '",".join(d["llnl_targets"][k]["verdict"] for k in ("barrier_latency", "parallel_for_overhead")) + ","')" \
        "--ghz=2: the text verdicts are the JSON's"
    n_text=$(sed -n 's/^Barrier latency (OMP Barrier): \([0-9]*\) cycles.*/\1/p' <<<"$barrier_line")
    n_json=$(pyget "$tmp/ghz.json" 'd["llnl_targets"]["barrier_latency"]["cycles"]')
    half=$(pyget "$tmp/ghz.json" '(lambda c: 0.5 * (c[1] - c[0]) if c else 0.0)(d["llnl_targets"]["barrier_latency"]["cycles_ci_95"])')
    if [ "$n_json" = None ]; then   # OMP Barrier is not a result: the text says N/A
        [[ $barrier_line == *"N/A (not a result"* ]]
    else
        awk -v a="$n_text" -v b="$n_json" -v h="$half" 'BEGIN { t = (h > 0.5 ? h : 0.5); d = a - b; exit !(a != "" && d <= t && -d <= t) }'
    fi
    ok $? "--ghz=2: the text barrier cycles ($n_text) are the JSON's ($n_json) rounded to what the interval supports"
else
    skip "--ghz=2: the JSON cycle figures" "no python3"
fi
cycles_lines=$(grep -E '^ *[A-Za-z_ ]+   Cycles: ' <<<"$t7_out")
bad_cycles=$(grep -cvE '^ *[A-Za-z_ ]+   Cycles: (-?[0-9]+(\.[0-9]+)?( \(95% CI -?[0-9]+ \.\. -?[0-9]+, within this process\))? (per |of overhead |of CLOMP overhead ).*, (nominal TSC cycles|core cycles \(--ghz\))$|unavailable \()' <<<"$cycles_lines")
# One per threaded probe (OMP Barrier, OMP Parallel, Parallel For) and per checked schedule of the default sequence.
want_cycles=$(( $(schedule_list probe default | grep -vc '^calc_deposit$') + $(schedule_list checked default | grep -c .) ))
if [ "$have_python" -eq 1 ]; then   # none for a measurement that is not a result, nor an overhead against an invalid Bestcase
    want_cycles=$((want_cycles - $(pyget "$tmp/t7.json" 'sum(1 for m in d["measurements"] if m["key"] != "calc_deposit" and m["role"] in ("probe", "checked") and (m["valid"] is False or (m["role"] == "checked" and by["Bestcase OMP"]["valid"] is False)))')))
fi
[ "$(line_count "$cycles_lines")" -eq "$want_cycles" ] && [ "$bad_cycles" -eq 0 ]
ok $? "without --ghz: $want_cycles Cycles lines (the threaded probes, the checked schedules), each a number or 'unavailable ('"

# ---- 9. --schedules ------------------------------------------------------------------------------
run_clomp --schedules=static,barrier --trials=3 --json="$tmp/sel.json" "${args[@]}"
sel_out=$out
is "$rc" 0 "--schedules=static,barrier exits 0"
is "$(block_names "$sel_out" | tr '\n' ',')" "OMP Barrier,Serial Ref,Static OMP," \
    "--schedules=static,barrier runs exactly OMP Barrier, Serial Ref (always) and Static OMP"
s=$(lines_starting "$sel_out" "$SUMMARY")
mapfile -t S < <(printf '%s\n' "$sel_out" | sed -n "$((${s:-1} + 2)),$((${s:-1} + 6))p")
na_ok=0
for row in "${S[@]}"; do
    IFS=',' read -r -a F <<<"$row"
    for c in "${!names[@]}"; do   # every column but OMP Barrier, Serial Ref and Static OMP
        case ${names[c]} in 'OMP Barrier' | 'Serial Ref' | 'Static OMP') continue ;; esac
        [ "$(tr -d ' ' <<<"${F[c + 1]-}")" = N/A ] || na_ok=1
    done
done
[ "${#S[@]}" -eq 5 ] && [ "$na_ok" -eq 0 ]
ok $? "--schedules=static,barrier: the $((${#names[@]} - 3)) unselected columns are N/A in all five summary rows"
is "$(summary_cell "$sel_out" Efficacy 5),$(summary_cell "$sel_out" Overhead 5)" "N/A,N/A" \
    "--schedules=static,barrier: Static OMP's Efficacy and Overhead are N/A (no Bestcase OMP to compare with)"
[[ $sel_out != *'Static OMP Efficacy:'* && $sel_out != *'Static OMP Overhead:'* && $sel_out != *'Static OMP Med. Ovh:'* ]]
ok $? "--schedules=static,barrier: the Static OMP block has no Efficacy, Overhead or Med. Ovh line"
coral=$(grep '^CORAL RFP, ' <<<"$sel_out")
IFS=',' read -r -a F <<<"$coral"
got=''
for c in 2 3 4 5 6 7 8 9 10; do got+="$(tr -d ' ' <<<"${F[c]-}")|"; done
# Static's speedup is N/A only when its block or Serial Ref's says it is not a result (issue 35: a busy
# machine can make a measurement invalid, and a speedup over an invalid Serial Ref is N/A; make check
# failed here under load, once for each).
static_speedup='[0-9]+\.[0-9]'
[[ $sel_out != *'Static OMP  INVALID: not a result'* && $sel_out != *'Serial Ref  INVALID: not a result'* ]] ||
    static_speedup='N/A'
like "$got" "^[0-9]+\\.[0-9]{2}\\|[0-9]+\\.[0-9]{2}\\|N/A\\|N/A\\|$static_speedup\\|N/A\\|N/A\\|N/A\\|N/A\\|\$" \
    "--schedules=static,barrier: CORAL RFP has Serial and Barrier us/Loop and Static's speedup (N/A if Static or Serial Ref is not a result), N/A for bestcase speedup, static overhead and all dynamic/manual figures"
like "$sel_out" $'\n''     Measurements: OMP Barrier, Serial Ref, Static OMP \(--schedules; Serial Ref always runs; without Bestcase OMP, Efficacy and Overhead are N/A\)'$'\n' \
    "--schedules=static,barrier: the setup lists the measurements and says why Efficacy and Overhead are N/A"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/sel.json" '[m["name"] for m in d["measurements"] if m["selected"]] == ["OMP Barrier", "Serial Ref", "Static OMP"] and [m["name"] for m in d["measurements"]] == NAMES' \
        "--schedules=static,barrier: the JSON lists every measurement of the default sequence, three of them selected"
    pycheck "$tmp/sel.json" 'all(m["rounds"] == [] and m["verification"]["result"] == "not run" and all(m[k] is None for k in ("started", "threads", "checksum", "runtime_seconds", "us_per_loop", "speedup", "efficacy_percent", "overhead_us_per_loop", "overhead_ci_95", "statistics")) for m in d["measurements"] if not m["selected"])' \
        "--schedules=static,barrier: unselected measurements are 'not run', with no rounds and null figures"
    pycheck "$tmp/sel.json" 'by["Static OMP"]["overhead_us_per_loop"] is None and by["Static OMP"]["efficacy_percent"] is None and by["Static OMP"]["checksum"] == by["Serial Ref"]["checksum"] and d["llnl_targets"]["parallel_for_overhead"] is None and d["llnl_targets"]["fork_join"] is None and d["llnl_targets"]["barrier_latency"] is not None' \
        "--schedules=static,barrier: Static OMP has a checksum but no overhead or efficacy; only the barrier target is judged"
    pycheck "$tmp/sel.json" 'd["inputs"]["schedules"] == "static,barrier"' "--schedules=static,barrier: inputs.schedules echoes the list"
else
    skip "--schedules in the JSON" "no python3"
fi

run_clomp --schedules=serial --trials=2 "${args[@]}"
is "$rc" 0 "--schedules=serial exits 0"
is "$(block_names "$out" | tr '\n' ',')" "Serial Ref," "--schedules=serial runs only Serial Ref"
run_clomp --dry-run '--schedules=OMP Barrier,Static OMP' "${args[@]}"
[ "$rc" -eq 0 ] && [[ $out == *$'\n''     Measurements: OMP Barrier, Serial Ref, Static OMP'$'\n'* ]]
ok $? "--schedules also takes the report names ('OMP Barrier,Static OMP'), Serial Ref added"

# ---- 10. --quiet ------------------------------------------------------------------------------------
run_clomp --quiet --trials=3 "${args[@]}"
is "$rc" 0 "--quiet exits 0"
is "$err" "" "--quiet prints nothing on stderr"
mapfile -t Q <<<"$out"
is "${#Q[@]}" 8 "--quiet prints exactly 8 lines"
is "${Q[0]-}" "$SUMMARY" "--quiet starts with the summary marker"
is "${Q[1]-}" "$CLOMP ${args[*]}, $(printf '%s, ' "${names[@]}" | sed 's/, $//')" "--quiet line 2 is the summary header"
is "$(for l in "${Q[@]:2:5}"; do printf '%s,' "${l%%,*}"; done)" "Runtime,us/Loop,Speedup,Efficacy,Overhead," \
    "--quiet lines 3 to 7 are the five summary rows"
like "${Q[7]-}" "^CORAL RFP, ${args[*]}, " "--quiet ends with the CORAL RFP line"

# ---- 11. bad option values --------------------------------------------------------------------------
# rejected DESC ARGS...: exit 2, nothing on stdout, one stderr line starting 'clomp: '.
rejected() {
    local desc=$1
    shift
    run_clomp "$@"
    if [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(line_count "$err")" -eq 1 ] && [ "${err#clomp: }" != "$err" ]; then
        ok 0 "$desc"
    else
        ok 1 "$desc"
        diag "args: $*" "exit $rc; stderr: $err" "stdout: ${out:0:200}"
    fi
}
for opt in --trials=0 --trials=abc --trials=010 --trials=10001 --rounds=0 --rounds=1001 --ghz=0 --ghz=-1 \
    --ghz=1e3 --ghz=inf --ghz=101 --schedules= --schedules=foo '--schedules=static,' --json=; do
    rejected "$opt is rejected: exit 2, one 'clomp: ' line on stderr, nothing on stdout" "$opt" "${args[@]}"
done
rejected "--json=/nonexistent-dir/x.json (a directory that does not exist) is rejected with exit 2 before any output" \
    --json=/nonexistent-dir/x.json "${args[@]}"

printf 'keep me\n' >"$tmp/keep.json"
for opt in --trials=0 --schedules=foo --ghz=inf; do
    run_clomp --json="$tmp/keep.json" "$opt" "${args[@]}"
    [ "$rc" -eq 2 ] && [ "$(cat "$tmp/keep.json")" = 'keep me' ]
    ok $? "an existing JSON file is left untouched by a run refused for $opt (exit 2)"
done
leftovers=$(find "$tmp" -name '*.tmp.*' | wc -l | tr -d ' ')
is "$leftovers" 0 "refused runs leave no temporary JSON file behind"

# ---- 12. a verification failure in the middle of a chunked run ----------------------------------------
FAULTS_BIN=${CLOMP_FAULTS_BIN:-"$(cd "$(dirname "$0")/.." && pwd)/clomp-faults"}
if [ -x "$FAULTS_BIN" ] && [ "$have_python" -eq 1 ]; then
    CLOMP_FAULT=lost-update CLOMP_FAULT_SCHEDULE='Static OMP' "$FAULTS_BIN" --trials=5 --json="$tmp/fault.json" \
        "${args[@]}" </dev/null >"$tmp/fault.out" 2>"$tmp/fault.err"
    rc=$?
    is "$rc" 1 "a lost update in Static OMP (clomp-faults --trials=5) exits 1"
    # The chunk that holds the armed subcycle (0-based), from the plan.
    armed=$(sed -n 's/^clomp-faults: lost-update armed in Static OMP at subcycle \([0-9]*\),.*/\1/p' "$tmp/fault.err")
    chunk=$(awk -v s="${armed:--1}" -v ends="$(plan "$iterations" 5)" \
        'BEGIN { n = split(ends, e, " "); for (i = 1; i <= n; i++) if (s >= 0 && s < e[i] * 10) { print i; exit } }')
    [ -n "$chunk" ]
    ok $? "clomp-faults says where it armed the fault (subcycle ${armed:-?}: chunk ${chunk:-?} of 5)"
    grep -q "^clomp: Static OMP failed verification against Serial Ref in chunk ${chunk:-?} of 5\$" "$tmp/fault.err"
    ok $? "stderr names Static OMP and chunk ${chunk:-?} of 5"
    json_valid "$tmp/fault.json" "the failed run still writes valid JSON"
    pycheck "$tmp/fault.json" 'd["status"] == "verification failed" and d["exit_status"] == 1' \
        "the failed run's JSON has status 'verification failed' and exit_status 1"
    pycheck "$tmp/fault.json" '"Static OMP" in d["failure"] and "chunk '"${chunk:-?}"' of 5" in d["failure"]' \
        "the JSON failure text names Static OMP and chunk ${chunk:-?} of 5"
    pycheck "$tmp/fault.json" 'by["Static OMP"]["verification"] == {"result": "failed", "verified_chunks": '"$((${chunk:-1} - 1))"'} and by["Static OMP"]["us_per_loop"] is None and by["Static OMP"]["checksum"] is None' \
        "Static OMP's verification is 'failed' after $((${chunk:-1} - 1)) verified chunks, with no figures"
    pycheck "$tmp/fault.json" 'by["Serial Ref"]["verification"] == {"result": "reference", "verified_chunks": 5} and all(by[n]["verification"]["result"] == "not run" and by[n]["rounds"] == [] for n in NAMES[5:])' \
        "Serial Ref verified its 5 chunks; the measurements after Static OMP did not run"
else
    skip "a verification failure in a chunked run" "no executable $FAULTS_BIN (make clomp-faults) or no python3"
fi

# ---- 12b. a resource failure still leaves a document ---------------------------------------------------
rm -f "$tmp/limit.json"
OMP_THREAD_LIMIT=1 run_clomp --json="$tmp/limit.json" "${args[@]}"
is "$rc" 3 "2 threads under OMP_THREAD_LIMIT=1 is a resource failure: exit 3"
json_valid "$tmp/limit.json" "the resource failure still writes valid JSON"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/limit.json" 'd["status"] == "failed" and d["exit_status"] == 3 and "thread limit" in d["failure"] and d["measurements"] == []' \
        "its JSON says status failed, exit_status 3, the reason (the thread limit), and nothing measured"
fi
is "$(find "$tmp" -name 'limit.json.tmp.*' | wc -l)" 0 "and no temporary file is left behind"

# ---- 13. --dry-run -----------------------------------------------------------------------------------
run_clomp --dry-run --trials=7 --json="$tmp/dry.json" "${args[@]}"
is "$rc" 0 "--dry-run --trials=7 --json=FILE exits 0"
like "$out" $'\n''           Trials: 7 chunks per timed run \(--trials\); 1 round'$'\n' "--dry-run's plan gives the 7 chunks of --trials=7"
[[ $out != *Checksum* && $out != *"$SUMMARY"* ]]
ok $? "--dry-run measures nothing: no checksum, no summary"
json_valid "$tmp/dry.json" "--dry-run --json=FILE writes valid JSON"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/dry.json" 'd["status"] == "ok" and d["exit_status"] == 0 and d["measurements"] == [] and all(v is None for v in d["llnl_targets"].values())' \
        "--dry-run's JSON: status ok, exit 0, no measurements, no targets"
    pycheck "$tmp/dry.json" 'd["resolved"]["trials"] == 7 and d["resolved"]["chunk_end_iterations"] == ['"$(plan "$iterations" 7 | tr " " ,)"']' \
        "--dry-run --trials=7's JSON already holds the chunk plan ($(plan "$iterations" 7))"
    pycheck "$tmp/dry.json" 'd["inputs"]["trials"] == 7 and d["resolved"]["iterations"] == '"$iterations" \
        "--dry-run's JSON keeps the inputs (trials 7) and the $iterations iterations"
fi
run_clomp --dry-run --rounds=4 --json="$tmp/dry-default.json" "${args[@]}"
if [ "$have_python" -eq 1 ]; then
    pycheck "$tmp/dry-default.json" 'd["resolved"]["trials"] is None and d["resolved"]["chunk_end_iterations"] == []' \
        "--dry-run without --trials has no chunk plan yet in its JSON (trials null: calibrated on the mesh)"
fi
like "$out" $'\n''           Trials: up to 20 chunks per timed run, chosen from a one-iteration calibration; 4 rounds'$'\n' \
    "--dry-run without --trials says the chunk count is calibrated, up to 20, and gives the rounds"

done_testing
