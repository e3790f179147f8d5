#!/usr/bin/env bash
# LLVM OpenMP 14, 16 and 19 side by side (issue 49, item 4), full lane: make
# runtimes unpacks Debian's libomp5-16 and libomp5-19 privately into
# build/runtimes/ (never installed: they conflict with libomp-dev); then
# --compare libomp14,libomp19 runs the clang build on each (2 pairs at
# timeScale 1: a check, not a measurement) and names each side's library and
# package version, and which library each process really loaded, as its own
# record says (ompt.runtime_path) and as ldd, a different mechanism, resolves
# it in that side's environment; --sweep --side libomp16 runs on 16's. Skipped
# with the reason when clang is missing or the packages cannot be downloaded.
# About 1 min on the 2-core VM (the clang build when build-clang/ is stale).

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"
skip_all_unless_full_lane "LLVM libomp 14, 16 and 19 side by side"

top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (--compare's report needs it)"; exit 0; }
command -v clang >/dev/null 2>&1 || { echo "1..0 # SKIP no clang: the libomp sides run the clang build (apt-get install clang libomp-dev)"; exit 0; }
[ -f /usr/lib/llvm-14/lib/libomp.so.5 ] || { echo "1..0 # SKIP no /usr/lib/llvm-14/lib/libomp.so.5 (apt-get install libomp-14-dev)"; exit 0; }
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

if ! make -C "$top" --no-print-directory runtimes >"$root/unpack.log" 2>&1; then
    printf '1..0 # SKIP the packages could not be unpacked: %s\n' "$(grep -m1 'failed\|could not' "$root/unpack.log" | tr '\n' ' ')"
    exit 0
fi
for v in 16 19; do
    lib=$top/build/runtimes/libomp$v/usr/lib/llvm-$v/lib/libomp.so.5
    want=$(apt-cache show --no-all-versions "libomp5-$v" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
    ok "$([ -f "$lib" ] && [ "$(cat "$top/build/runtimes/libomp$v/package")" = "libomp5-$v $want" ] &&
        ! dpkg-query -W -f '${Status}' "libomp5-$v" 2>/dev/null | grep -q 'ok installed'; echo $?)" \
        "make runtimes: libomp5-$v $want unpacked in build/runtimes/libomp$v, not installed"
done

# ---- --compare libomp14,libomp19 ---------------------------------------------------------------
"$top/run_clomp.sh" --compare libomp14,libomp19 --replicates 2 --force --quick --out "$root/out" \
    2 1 64 100 32 1 1 >"$root/compare.out" 2>&1
rc=$?
is "$rc" 0 "--compare libomp14,libomp19 runs (2 pairs, timeScale 1) ($(tail -n 1 "$root/compare.out"))"
stem=$(find "$root/out" -name '*_compare.json' | head -n 1)
stem=${stem%.json}
checked=$(python3 - "$stem" "$top" <<'PY' 2>&1
import glob, json, os, re, subprocess, sys
stem, top = sys.argv[1], sys.argv[2]
doc = json.load(open(stem + ".json"))
text = open(stem + ".txt").read()
problems = []
want = {"A": ("/usr/lib/llvm-14/lib", "libomp5-14"), "B": (top + "/build/runtimes/libomp19/usr/lib/llvm-19/lib", "libomp5-19")}
for side in doc["sides"]:
    directory, package = want[side["side"]]
    lib = os.path.join(directory, "libomp.so.5")
    # The processes' own word: every record of the side names this library.
    loaded = set(json.load(open(p))["ompt"].get("runtime_path") for p in glob.glob("%s_%s[0-9]*.json" % (stem, side["side"])))
    if loaded != {lib}:
        problems.append("%s: records loaded %s" % (side["side"], loaded))
    # ldd, another mechanism, in the side's environment: the same file.
    env = dict(os.environ, LD_LIBRARY_PATH=side["ld_library_path_first"] or "")
    ldd = subprocess.run(["ldd", side["binary"]], stdout=subprocess.PIPE, env=env, universal_newlines=True).stdout
    resolved = [os.path.realpath(l.split()[2]) for l in ldd.splitlines() if "libomp.so.5 =>" in l]
    if resolved != [lib]:
        problems.append("%s: ldd resolves %s" % (side["side"], resolved))
    rl = side["runtime_library"]
    if rl["path"] != lib or not rl["version"].startswith(package + " 1:") or \
            rl["loaded_by_processes"] != "%s (all 2 processes)" % lib:
        problems.append("%s: the JSON says %s" % (side["side"], rl))
    if "loaded by its processes: %s (all 2 processes)" % lib not in text or rl["version"] not in text:
        problems.append("%s: the text does not name %s, %s" % (side["side"], lib, rl["version"]))
print(len(doc["sides"]), "; ".join(problems))
PY
)
like "$checked" '^2 $' "each side names its library (llvm-14's, the unpacked llvm-19's) and package version, and all its processes loaded it, by their records and by ldd ($checked)"

# ---- --sweep on libomp 16 ----------------------------------------------------------------------
"$top/run_clomp.sh" --sweep KMP_BLOCKTIME=0 --side libomp16 --replicates 2 --quick --no-plots --out "$root/sweep" \
    2 1 64 100 32 1 1 >"$root/sweep.out" 2>&1
rc=$?
records=$(find "$root/sweep" -name '*_sweep_c*r*.json' | LC_ALL=C sort)
lib16=$top/build/runtimes/libomp16/usr/lib/llvm-16/lib/libomp.so.5
paths=$(for r in $records; do python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ompt"]["runtime_path"])' "$r"; done | sort -u)
ok "$([ "$rc" = 0 ] && [ "$paths" = "$lib16" ] && grep -q "libomp5-16 1:16" "$(find "$root/sweep" -name '*_sweep.txt')"; echo $?)" \
    "--sweep --side libomp16: every process loaded 16's library, and the report names libomp5-16 (exit $rc: $paths)"

done_testing
