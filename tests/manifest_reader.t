#!/usr/bin/env bash
# The driver reads the suite manifest back by its JSON, never by its line layout
# (clomp-write get, entries and head: write/manifest_reader.c). Brute force against
# Python's json module as the oracle: random documents (nested objects and arrays,
# strings with escapes, control characters, non-ASCII and astral characters,
# numbers of every form) written in random layouts, every path into them asked
# for; every proper prefix and single-byte change of a document is refused
# exactly when json.loads refuses it. Then the driver: a suite whose manifest was
# laid out anew resumes, keeps its head and its failed run's reason.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
# shellcheck source-path=SCRIPTDIR source=lib/stand_in.sh
. "$(dirname "$0")/lib/stand_in.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- 1. without python3: what each answer looks like ----------------------------------------
cat >"$root/m.json" <<'JSON'
{"schema": "clomp-suite-manifest",
   "settings" : { "host" : "n1", "max_threads" :4 },
 "plan": [], "runs": [
  {"status": "failed", "run": 2, "reason": "boom \u001b[2J"},
  {"run": 3, "status": "done", "reason": null}],
 "history": ["started", "resumed"], "status": "running", "machine": [ ] }
JSON
is "$("$writer" get "$root/m.json" settings)" '{"host": "n1", "max_threads": 4}' "get prints an object in compact JSON, whatever its layout"
is "$("$writer" get "$root/m.json" runs.run=2.reason)" "boom $(printf '\033')[2J" "get NAME=VALUE picks an array's object by a member, and prints a string's text"
"$writer" get "$root/m.json" runs.run=3.reason >"$root/out" 2>&1
is "$? $(wc -c <"$root/out")" "1 0" "a null value is absent: exit 1, nothing printed"
is "$("$writer" entries "$root/m.json" runs run)" $'2\t{"status": "failed", "run": 2, "reason": "boom \\u001b[2J"}\n3\t{"run": 3, "status": "done", "reason": null}' \
    "entries prints each element a line, its KEY first"
is "$("$writer" head "$root/m.json")" $'{\n  "schema": "clomp-suite-manifest",\n  "settings": {"host": "n1", "max_threads": 4},\n  "machine": [],' \
    "head keeps every member but those each write makes anew, in the file's order"
printf '{"a": [1, 2' >"$root/cut.json"
"$writer" get "$root/cut.json" a 2>"$root/err"
is "$?" 3 "a document cut short is refused with exit 3"
is "$(cat "$root/err")" "clomp-write: $root/cut.json: not a JSON document (byte 12: an array without ',' or ']' here)" "in one line naming the byte"
ln -s "$root/m.json" "$root/link.json"
"$writer" head "$root/link.json" >/dev/null 2>&1
is "$?" 3 "a symbolic link is not read"
printf '{"a": "x\\u0000y"}' >"$root/nul.json"
"$writer" get "$root/nul.json" a >"$root/out" 2>/dev/null
is "$? $(wc -c <"$root/out")" "3 0" "a string holding \\u0000 is not printed (no shell variable holds it)"

# ---- 2. brute force against json.loads --------------------------------------------------------
if ! command -v python3 >/dev/null 2>&1; then
    skip "brute force against Python's json module" "python3 not installed"
else
    python3 - "$writer" "$root" <<'PYTHON' >"$root/brute.out" 2>&1
import json, random, subprocess, sys
writer, root = sys.argv[1], sys.argv[2]
rng = random.Random(46)
ALPHABET = ['a', 'Z', ' ', '"', '\\', '/', '\n', '\t', '\x01', '\x1f', '\x7f', '\u00e9', '\u2028', '\U0001F600', '.', '=', ',']

def text():
    return ''.join(rng.choice(ALPHABET) for _ in range(rng.randrange(6)))

def number():
    return rng.choice([0, -0, 7, -123456789012, 2 ** 70, 0.5, -1.25e-7, 3.0e300, 1e-300, rng.random() * 1e6])

def value(depth):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0: return None
    if kind == 1: return rng.choice([True, False])
    if kind == 2: return number()
    if kind in (3, 4): return text()
    if kind == 5: return [value(depth + 1) for _ in range(rng.randrange(4))]
    obj = {}
    for _ in range(rng.randrange(5)):
        obj[rng.choice(['run', 'k', 'x y', 'é', text()]).replace('.', '').replace('=', '')] = value(depth + 1)
    return obj

def ask(*args):
    done = subprocess.run([writer] + list(args), capture_output=True)
    return done.returncode, done.stdout

def printed(v, ascii_):
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=ascii_)

def paths(v, prefix):
    """Every path into V that get can name: members, indexes, and NAME=VALUE selectors."""
    yield prefix, v
    if isinstance(v, dict):
        seen = set()
        for k, item in v.items():
            if k and k not in seen and '.' not in k and '=' not in k:
                seen.add(k)
                yield from paths(item, prefix + [k])
    elif isinstance(v, list):
        for i, item in enumerate(v):
            yield from paths(item, prefix + [str(i)])
            if isinstance(item, dict) and 'run' in item and not isinstance(item['run'], (dict, list)) and item['run'] is not None:
                want = printed(item['run'], True)
                if want and '.' not in want and '\n' not in want and '\0' not in want:
                    first = next(e for e in v if isinstance(e, dict) and 'run' in e and printed(e['run'], True) == want)
                    yield from paths(first, prefix + ['run=' + want])

failures, checked = [], 0
for case in range(40):
    doc = {k: value(1) for k in ['schema', 'plan', 'runs', 'settings', text().replace('.', ''), 'status']}
    doc['runs'] = [{'run': n, 'reason': value(3)} for n in range(rng.randrange(4))] + [value(2)]
    ascii_ = rng.random() < 0.5
    layout = rng.choice([dict(), dict(indent=2), dict(indent=0), dict(separators=(',', ':')), dict(indent='\t')])
    body = json.dumps(doc, ensure_ascii=ascii_, **layout)
    path = '%s/doc%d.json' % (root, case)
    with open(path, 'w', encoding='utf-8') as f:
        f.write(body)
    loaded = json.loads(body)
    for segs, v in paths(loaded, []):
        if not segs or any(s == '' for s in segs):
            continue
        rc, out = ask('get', path, '.'.join(segs))
        want = (1, b'') if v is None else (0, (printed(v, ascii_) + '\n').encode('utf-8', 'surrogatepass'))
        checked += 1
        if (rc, out) != want:
            failures.append('get %s in doc%d: %r, wanted %r' % ('.'.join(segs), case, (rc, out), want))
    rc, out = ask('entries', path, 'runs', 'run')
    want = ''.join('%s\t%s\n' % (printed(e['run'], ascii_) if isinstance(e, dict) and 'run' in e and e['run'] is not None else '',
                                 json.dumps(e, ensure_ascii=ascii_)) for e in loaded['runs'])
    checked += 1
    if (rc, out.decode('utf-8', 'surrogatepass')) != (0, want):
        failures.append('entries runs in doc%d: %r, wanted %r' % (case, out, want))
    rc, out = ask('head', path)
    want = '{\n' + ''.join('  %s: %s,\n' % (json.dumps(k, ensure_ascii=ascii_), json.dumps(v, ensure_ascii=ascii_))
                           for k, v in loaded.items() if k not in ('plan', 'runs', 'replicates', 'history', 'status'))
    checked += 1
    if (rc, out.decode('utf-8')) != (0, want):
        failures.append('head of doc%d: %r, wanted %r' % (case, out, want))
    # Refused exactly when json.loads refuses: every proper prefix, single-byte changes (ASCII documents).
    if ascii_:
        raw = body.rstrip()
        cuts = [rng.randrange(len(raw)) for _ in range(5)]
        changes = []
        for _ in range(20):
            at = rng.randrange(len(raw))
            changes.append(raw[:at] + rng.choice('{}[]",:0-.eE+\\u tfn1a ') + raw[at + 1:])
        for candidate in [raw[:c] for c in cuts] + changes:
            with open(path, 'w', encoding='ascii') as f:
                f.write(candidate)
            try:
                json.loads(candidate, parse_constant=lambda c: 1 / 0)
                valid = True
            except (ValueError, ZeroDivisionError):
                valid = False
            rc, _ = ask('entries', path, 'no such member')
            checked += 1
            if (rc == 1) != valid or rc not in (1, 3):
                failures.append('validity of %r: exit %d, json.loads %s' % (candidate, rc, 'accepts' if valid else 'refuses'))
print('%d checked, %d wrong' % (checked, len(failures)))
for f in failures[:5]:
    print(f)
PYTHON
    like "$(cat "$root/brute.out")" "^[0-9]{4,} checked, 0 wrong$" "every answer of get, entries and head, and every refusal, is json.loads' ($(head -n 1 "$root/brute.out"))"
fi

# ---- 3. the driver: a manifest laid out anew is read the same -------------------------------
# A stand-in clomp: every run succeeds at once, but run 3 fails (exit 7, a reason on stderr) once told to.
fake=$root/fakeclomp
# shellcheck disable=SC2016  # the line is the stand-in's, expanded when it runs
plain_stand_in "$fake" '[[ ! -e ${0%/*}/fail || $* != *.run3.json* ]] || { echo "fake clomp: failing on purpose" >&2; exit 7; }'
quick=(--quick --max-zone-scale 1 --replicates 2 --no-constructs --no-plots --calibrate=off)
host=$(uname -n)
host=${host%%.*}
if ! command -v python3 >/dev/null 2>&1; then
    skip "a manifest laid out anew resumes" "python3 not installed (it lays the manifest out anew)"
else
    "$top/run_clomp.sh" "${quick[@]}" --out "$root/s" "$fake" 2 </dev/null >/dev/null 2>&1
    base=$root/s/CLOMP_${host}_1
    # Run 3 again: failing this time; the manifest re-laid out (indent 4, members' order kept) first.
    grep -vx 3 "$base.done" >"$root/done" && cat "$root/done" >"$base.done"
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["settings"]["host"] = "laid out anew"
open(sys.argv[1], "w").write(json.dumps(d, indent=4))' "$base.suite.json"
    : >"$root/fail"
    out=$(CLOMP=$CLOMP "$top/run_clomp.sh" "${quick[@]}" --out "$root/s" --resume 1 "$fake" 2 </dev/null 2>"$root/resume.err")
    is "$? $(tail -n 1 <<<"$out")" "1 Suite FAILED: 1 of $(grep -c . "$base.done") runs FAILED; first: run 3 (key, exit status 7): fake clomp: failing on purpose" \
        "--resume reads the plan signature of a manifest laid out anew, and the Suite FAILED line the reason it recorded"
    is "$("$writer" get "$base.suite.json" settings.host) $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["runs"][2]["status"])' "$base.suite.json")" \
        "laid out anew failed" "the settings are kept as the manifest held them, and run 3 is failed"
fi

done_testing
