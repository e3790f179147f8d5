#!/usr/bin/env bash
# Files that belong together, replaced together (results/clomp_results/core/safe_write.py
# replace_files; --compare's .txt, .csv and .json): an interrupt while they are written or
# renamed leaves all of them new or all as they were, never a new one beside old ones, and no
# temporary file; a link planted at one of them is refused before any is replaced, its target
# untouched. The oracle is the files' contents, read back after each case.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3"; exit 0; }
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

results=$(cd "$root" && PYTHONPATH="$top/results" python3 - <<'PYTHON'
import os, signal
from clomp_results.core import safe_write

NAMES = ("r.txt", "r.csv", "r.json")
# Python's own Ctrl-C handler, whatever this process inherited: a job started in the background by
# a non-interactive shell (a CI runner's) has SIGINT ignored, and the interrupts below would not land.
signal.signal(signal.SIGINT, signal.default_int_handler)

def reset(d):
    os.makedirs(d)
    for n in NAMES:
        with open(os.path.join(d, n), "w") as f:
            f.write("old " + n)

def state(d):
    left = sorted(n for n in os.listdir(d) if n not in NAMES)
    got = set()
    for n in NAMES:
        with open(os.path.join(d, n)) as f:
            got.add(f.read().split()[0])
    return "/".join(sorted(got)) + (" and " + " ".join(left) if left else "")

def write_set(d):
    fd = safe_write.open_dir(d)
    try:
        safe_write.replace_files(fd, [(n, ("new " + n).encode(), None) for n in NAMES])
    finally:
        os.close(fd)

def interrupted(d, patch, when):
    """write_set with PATCH (os.fsync or os.rename) raising SIGINT at its WHEN-th call."""
    real, calls = getattr(os, patch), [0]
    def wrapper(*a, **k):
        calls[0] += 1
        if calls[0] == when:
            os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **k)
    setattr(os, patch, wrapper)
    try:
        write_set(d)
        return "no interrupt"
    except KeyboardInterrupt:
        return state(d)
    finally:
        setattr(os, patch, real)

reset("a"); write_set("a")
print("plain\t" + state("a"))
reset("b")
print("writing\t" + interrupted("b", "fsync", 3))
reset("c")
print("renaming\t" + interrupted("c", "rename", 2))
reset("d")
with open("target", "w") as f:
    f.write("theirs")
os.unlink("d/r.csv")
os.symlink(os.path.abspath("target"), "d/r.csv")
try:
    write_set("d")
    print("link\treplaced")
except safe_write.UnsafeTarget as e:
    with open("d/r.txt") as f, open("target") as t:
        print("link\t%s, r.txt %s, target %s, %s" % (e, f.read().split()[0], t.read(), " ".join(sorted(os.listdir("d")))))
PYTHON
)
field() { printf '%s\n' "$results" | awk -F '\t' -v k="$1" '$1 == k { print $2 }'; }
is "$(field plain)" "new" "the three written together are all new"
is "$(field writing)" "old" "an interrupt while the third is written leaves all three as they were, no temporary file"
is "$(field renaming)" "new" "an interrupt at the second rename is held off: all three new, no temporary file"
like "$(field link)" '^r\.csv is a symbolic link: refused .*, r\.txt old, target theirs, r\.csv r\.json r\.txt$' \
    "a link at one of them: refused before any is replaced, its target untouched, no temporary file"

# TERM (no Python handler: the process ends at once) while the second file is written: held off
# until the set is in place, then it ends the process (exit 143), all three new, no temporary file.
mkdir "$root/t"
for n in r.txt r.csv r.json; do printf 'old %s' "$n" >"$root/t/$n"; done
(cd "$root/t" && PYTHONPATH="$top/results" python3 -c '
import os, signal
from clomp_results.core import safe_write
real, calls = os.fsync, [0]
def wrapper(fd):
    calls[0] += 1
    if calls[0] == 2:
        os.kill(os.getpid(), signal.SIGTERM)
    return real(fd)
os.fsync = wrapper
fd = safe_write.open_dir(".")
safe_write.replace_files(fd, [(n, ("new " + n).encode(), None) for n in ("r.txt", "r.csv", "r.json")])
print("not ended")
' >"$root/term.out" 2>&1)
is "$?:$(cat "$root/term.out"):$(cd "$root/t" && for n in *; do printf '%s=%s ' "$n" "$(cut -d' ' -f1 "$n")"; done)" \
    "143::r.csv=new r.json=new r.txt=new " "a TERM while the second is written lands after the renames: all three new, no temporary file"

done_testing
