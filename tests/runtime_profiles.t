#!/usr/bin/env bash
# The runtime profiles (issue 46, item 5; env/runtimes/README.md): one file per
# OpenMP runtime, read as data by bash (env/runtime.sh) and by Python
# (runtime_profiles.py), which must read every field of every profile alike;
# each names itself, its sides are unique and of a known mode, its presets are
# unique; `. env/runtime.sh NAME` exports exactly the preset's `set` lines and
# nothing in a value reaches a shell; the record's OpenMP variables are the
# profiles' prefixes. And a new runtime is one new file: in a scratch copy of
# the profiles (CLOMP_RUNTIME_DIR), a profile under a new name gives --env its
# preset, --sweep its wait axis and --compare its side, and the old name is gone.

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

rc='' out='' err=''
top=$(cd "$(dirname "$0")/.." && pwd)
command -v python3 >/dev/null 2>&1 || { echo "1..0 # SKIP no python3 (the Python reader is the second one)"; exit 0; }
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
clomp=$CLOMP   # (shellcheck takes env/runtime.sh's exports in the subshells below for any variable's)
root=$(mktemp -d) || { echo "Bail out! mktemp failed"; exit 255; }
trap 'rm -rf "$root"' EXIT

# Both readers, every field of every profile: the bash reader's lines against the Python reader's.
fields=$(cut -f1 "$top"/env/runtimes/*.tsv | grep -v '^#' | grep . | LC_ALL=C sort -u)
bash_view=$(. "$top/env/runtime.sh" --functions
    for p in $(runtime_names); do for f in $fields; do runtime_lines "$p" "$f" | sed "s/^/$p $f: /"; done; done)
# shellcheck disable=SC2086  # the field names, one word each
python_view=$(cd "$top/results" && python3 - $fields <<'PY'
import sys
from clomp_results.core import runtime_profiles
for p in runtime_profiles.profiles():
    for f in sys.argv[1:]:
        for line in p.values(f):
            print("%s %s: %s" % (p.name, f, "\t".join(line)))
PY
)
is "$bash_view" "$python_view" "bash and Python read every field of every profile alike ($(grep -c . <<<"$bash_view") lines, $(wc -w <<<"$fields") fields)"
like "$bash_view" $'libomp19 build: CC=clang\tBUILD=build-clang' "a field a profile does not give comes from the one it inherits (libomp19's build is libomp's)"

checks=$(cd "$top/results" && python3 - <<'PY'
import collections
from clomp_results.core import runtime_profiles
ps = runtime_profiles.profiles()
names = [p.name for p in ps]
sides = collections.Counter(s[0] for p in ps for s in p.values("side"))
presets = collections.Counter(p.value("preset") for p in ps if p.value("preset"))
bad_modes = ["%s %s" % (p.name, s) for p in ps for s in p.values("side")
             if not (s[1:] in (["build"], ["library"]) or (len(s) == 3 and s[1] == "as" and s[2] in names))]
print("ok\t" if {"libgomp", "libomp", "libomp14", "libomp16", "libomp19"} <= set(names) else "not ok\t", names)
print("ok\t" if all(n == 1 for n in sides.values()) and sides else "not ok\t", dict(sides))
print("ok\t" if all(n == 1 for n in presets.values()) and set(presets) >= {"gnu", "llvm", "intel", "ibm-xl"} else "not ok\t", dict(presets))
print("ok\t" if not bad_modes else "not ok\t", bad_modes)
PY
)
descs=("the profiles are libgomp's, libomp's and LLVM libomp 14's, 16's and 19's (and more)"
    "each side is one profile's" "each preset is one profile's: gnu, llvm, intel, ibm-xl"
    "each side is build, library, or as an existing profile")
i=0
while IFS=$'\t' read -r status detail; do
    [ "$status" = ok ]
    ok $? "${descs[i]}"
    [ "$status" = ok ] || diag "$detail"
    i=$((i + 1))
done <<<"$checks"

# A preset exported by hand: exactly its set lines (read with awk here), whatever the environment had.
for preset in gnu llvm intel ibm-xl; do
    profile=$(grep -l -P "^preset\t$preset$" "$top"/env/runtimes/*.tsv)
    want=$(awk -F '\t' '$1 == "set" { print $2 }' "$profile" | LC_ALL=C sort)
    got=$(. "$top/env/runtime.sh" "$preset" && while IFS= read -r s; do v=${s%%=*}; printf '%s=%s\n' "$v" "${!v}"; done <<<"$want")
    is "$got" "$want" ". env/runtime.sh $preset exports $(basename "$profile")'s settings"
done
got=$(bash -c '. "$1/env/runtime.sh" nosuch; echo "rc=$?"' _ "$top" 2>&1)
like "$got" $'no preset nosuch \\(have: gnu ibm-xl intel llvm\\)\nrc=2$' ". env/runtime.sh with no such preset: one line naming the presets, status 2"

# A value is data: a scratch profile whose setting holds $(...) and a ';' exports it as it is.
mkdir "$root/hostile"
# shellcheck disable=SC2016  # the $(...) is the profile's text, never expanded
printf 'runtime\tevil\npreset\tevil\nset\tCLOMP_TEST_VALUE=$(touch %s/ran);x\n' "$root" >"$root/hostile/evil.tsv"
got=$(CLOMP_RUNTIME_DIR=$root/hostile bash -c '. "$1/env/runtime.sh" evil && printf "%s" "$CLOMP_TEST_VALUE"' _ "$top")
ok "$([ "$got" = "\$(touch $root/ran);x" ] && [ ! -e "$root/ran" ]; echo $?)" "a setting's value is exported as written, never run ($got)"

# The record's OpenMP variables: every profile's prefixes (build_info_generated.h, from the profiles).
want=$(cd "$top/results" && python3 -c '
from clomp_results.core import runtime_profiles
print(" ".join(sorted({v for p in runtime_profiles.profiles() for line in p.values("variables") for v in line})))')
got=$(env -i PATH="$PATH" BG_SMP_FAST_WAKEUP=YES XLSMPOPTS=spins=0 GOMP_SPINCOUNT=5 LIBOMP_USE_HIDDEN_HELPER_TASK=0 NOT_OPENMP=1 \
    "$clomp" --dry-run --json=- 2 1 4 10 32 1 1 2>/dev/null | python3 -c '
import json, sys
print(" ".join(sorted(json.load(sys.stdin)["openmp_environment"])))')
is "$got" "BG_SMP_FAST_WAKEUP GOMP_SPINCOUNT LIBOMP_USE_HIDDEN_HELPER_TASK XLSMPOPTS" \
    "the record lists the variables of the profiles' prefixes ($want), none other"

# ---- a new runtime is one new file -------------------------------------------------------------
# A scratch copy of the profiles where libgomp's is renamed zomp, with its own preset and side
# names and its own spin counts: --env, --sweep and --compare take it, and no longer know libgomp.
scratch=$root/runtimes
cp -R "$top/env/runtimes" "$scratch"
sed -e 's/^runtime\tlibgomp$/runtime\tzomp/' -e 's/^preset\tgnu$/preset\tzgnu/' -e 's/^side\tgnu\t/side\tzgnu\t/' \
    -e 's/^wait\tGOMP_SPINCOUNT\t.*/wait\tGOMP_SPINCOUNT\t7\t77/' "$scratch/libgomp.tsv" >"$scratch/zomp.tsv"
rm "$scratch/libgomp.tsv"
export CLOMP_RUNTIME_DIR=$scratch
"$top/run_clomp.sh" --env zgnu --dry-run --quick --no-constructs --out "$root/out" "$clomp" 2 >"$root/env.out" 2>&1
is "$?" 0 "--env zgnu: the new profile's preset runs the suite's dry run"
"$top/run_clomp.sh" --env gnu --dry-run --quick --no-constructs --out "$root/out" "$clomp" 2 >"$root/env.out" 2>&1
rc=$?
like "$rc $(cat "$root/env.out")" '^2 .*--env: no preset .gnu. \(have: .*zgnu' "--env gnu is gone with its file: exit 2 naming zgnu among the presets"
# The sweep's plan names the runtime the binary was linked with: the renamed profile is
# libgomp's, so only a GCC-built CLOMP (the clang lane's is libomp's) can show it.
if "$clomp" --version 2>/dev/null | grep -q '^compiler: GCC'; then
    "$clomp" --dry-run --json="$root/dry.json" 2 1 4 10 32 1 1 >/dev/null 2>&1
    plan=$("$top/results/clomp-results" sweep-plan "$root/dry.json" wait 2>&1)
    like "$plan" $'runtime\tlibgomp[^\t]*\tzomp' "--sweep names the new profile as the runtime of a libgomp binary"
    is "$(grep '^combination' <<<"$plan" | cut -f3- | tr '\t' ' ')" \
        "$(printf '%s\n' 'OMP_WAIT_POLICY=active GOMP_SPINCOUNT=7' 'OMP_WAIT_POLICY=active GOMP_SPINCOUNT=77' \
            'OMP_WAIT_POLICY=passive GOMP_SPINCOUNT=7' 'OMP_WAIT_POLICY=passive GOMP_SPINCOUNT=77')" \
        "--sweep wait's axis is the new profile's spin counts (7, 77)"
else
    skip "--sweep names the new profile" "CLOMP is not built with GCC (libgomp)"
    skip "--sweep wait's axis is the new profile's spin counts" "CLOMP is not built with GCC (libgomp)"
fi
if "$clomp" --version 2>/dev/null | grep -q '^compiler: GCC' && [ "$clomp" -ef "$top/clomp" ]; then
    "$top/run_clomp.sh" --compare "zgnu,$clomp" --list-figures --quick >"$root/cmp.out" 2>&1
    is "$?" 0 "--compare zgnu,CLOMP: the new profile's side runs (its binary, ./clomp)"
    "$top/run_clomp.sh" --compare "gnu,$clomp" --list-figures --quick >"$root/cmp.out" 2>&1
    rc=$?
    like "$rc $(cat "$root/cmp.out")" "^2 .*unknown preset 'gnu' \(a binary path with a '/', or .*zgnu" \
        "--compare gnu is gone with its file: exit 2 naming zgnu among the sides"
else
    skip "--compare takes the new profile's side" "CLOMP is not this tree's gcc-built ./clomp"
    skip "--compare gnu is gone with its file" "CLOMP is not this tree's gcc-built ./clomp"
fi
unset CLOMP_RUNTIME_DIR

done_testing
