#!/usr/bin/env bash
# A suite's names in an output directory (clomp-write claim and refuse-links: write/suite_names.c),
# against the oracle they replace: the driver's shell functions claim_new_id and refuse_links as
# suite/common.sh had them, kept below word for word, run on the same directories. A grid of
# directories (free and taken IDs, every kind of file a suite name can be: regular, hidden, a
# directory, a link dangling or not, a FIFO; names that only look like a suite's; the 1,000 IDs all
# taken; a directory that does not exist or refuses the file) gives the same ID, the same file
# created, the same line and the same exit status from both. (The quick lane checks the claim in
# a directory of 1,000 taken IDs by its line, the full lane against the oracle too.)

# shellcheck source-path=SCRIPTDIR source=lib/tap.sh
. "$(dirname "$0")/lib/tap.sh"

# shellcheck source-path=SCRIPTDIR source=lib/writer.sh
. "$(dirname "$0")/lib/writer.sh"

# ---- the oracle: suite/common.sh's functions before they moved into C ----------------------------
die_usage() {
    printf 'run_clomp.sh: %s\n' "$1" >&2
    exit 2
}
claim_new_id() {
    local dir=$1 host=$2 n existing why
    id=''
    for ((n = 1; n <= 1000; n++)); do
        existing=("$dir/CLOMP_${host}_${n}".* "$dir/CLOMP_${host}_${n}"_* "$dir/.CLOMP_${host}_${n}".*)
        if [ -e "${existing[0]}" ] || [ -L "${existing[0]}" ] || [ -e "${existing[1]}" ] || [ -L "${existing[1]}" ] ||
            [ -e "${existing[2]}" ] || [ -L "${existing[2]}" ]; then continue; fi
        if why=$( (set -o noclobber; : >"$dir/CLOMP_${host}_${n}.env") 2>&1); then
            id=$n
            break
        fi
        [ -e "$dir/CLOMP_${host}_${n}.env" ] || die_usage "--out: cannot write in $dir: ${why##*: }"
    done
    [ -n "$id" ] || { echo "run_clomp.sh: no free suite ID (1..1000) in $dir" >&2; exit 2; }
    echo "$id"
}
refuse_links() {
    local f
    for f in "$1/$2".* "$1/$2"_* "$1/.$2".*; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        if [ -L "$f" ] || { [ ! -f "$f" ] && [ ! -d "$f" ]; }; then
            die_usage "--resume: $f is a symbolic link or not a regular file: refused (a suite's files are its own regular files)"
        fi
    done
}

# ---- the grid -----------------------------------------------------------------------------------
# make_dir DIR SPEC...: DIR with one entry per SPEC, KIND:NAME (file, dir, link to an existing file,
# dangling link, fifo).
make_dir() {
    local dir=$1 spec
    shift
    rm -rf "$dir"
    mkdir -p "$dir"
    for spec in "$@"; do
        case ${spec%%:*} in
            file) : >"$dir/${spec#*:}" ;;
            dir) mkdir "$dir/${spec#*:}" ;;
            link) : >"$root/target"; ln -s "$root/target" "$dir/${spec#*:}" ;;
            dangling) ln -s "$root/nowhere" "$dir/${spec#*:}" ;;
            fifo) mkfifo "$dir/${spec#*:}" ;;
        esac
    done
}

# The state a call leaves: every entry of DIR with its kind.
state() { (cd "$1" 2>/dev/null && find . -mindepth 1 -printf '%y %P\n' | LC_ALL=C sort); }

grid=(
    ""
    "file:CLOMP_h_1.env"
    "file:CLOMP_h_1_key.full"
    "file:.CLOMP_h_1.run.csv"
    "file:CLOMP_h_1."
    "file:CLOMP_h_1_"
    "dir:CLOMP_h_1.d"
    "dangling:CLOMP_h_1.env"
    "dangling:CLOMP_h_1_x dangling:.CLOMP_h_2.y"
    "link:CLOMP_h_1.csv file:CLOMP_h_2.env"
    "fifo:CLOMP_h_1.done"
    "file:CLOMP_h_10.env file:CLOMP_h_1x file:CLOMP_h_1 file:XCLOMP_h_1.env file:.CLOMP_h_1_z"
    "file:CLOMP_h_1.env file:CLOMP_h_2_a file:.CLOMP_h_3.b dangling:CLOMP_h_4.c file:CLOMP_h_6.d"
    "file:CLOMP_g_1.env file:CLOMP_h.x_1.env"
    "file:CLOMP_h_1.env file:CLOMP_h_1.b dangling:CLOMP_h_1.a link:CLOMP_h_1_c fifo:.CLOMP_h_1.d"
    "dir:CLOMP_h_1.a fifo:CLOMP_h_1_b dangling:.CLOMP_h_1.c"
    "link:.CLOMP_h_1.a file:CLOMP_h_1.z"
)
declare -A claim=() refuse=() last=()
for host in h h.x; do
    for spec in "${grid[@]}"; do
        read -r -a entries <<<"$spec"
        for who in shell c; do
            make_dir "$root/$who" ${entries[@]+"${entries[@]}"}
            if [ "$who" = shell ]; then
                out=$(claim_new_id "$root/$who" "$host" 2>&1)
            else
                out=$("$writer" claim "$root/$who" "$host" 2>&1)
            fi
            rc=$?
            claim[$who]="${out//$root\/$who/DIR} (exit $rc) $(state "$root/$who" | tr '\n' ' ')"
            make_dir "$root/$who" ${entries[@]+"${entries[@]}"}
            if [ "$who" = shell ]; then
                out=$( (refuse_links "$root/$who" "CLOMP_${host}_1") 2>&1)
            else
                out=$("$writer" refuse-links "$root/$who" "CLOMP_${host}_1" 2>&1)
            fi
            rc=$?
            refuse[$who]="${out//$root\/$who/DIR} (exit $rc)"
        done
        is "${claim[c]}" "${claim[shell]}" "claim, host $host, in a directory of [${spec:-nothing}]: ${claim[c]}"
        is "${refuse[c]}" "${refuse[shell]}" "refuse-links CLOMP_${host}_1 in [${spec:-nothing}]: ${refuse[c]}"
    done
done

# A directory that is not there; one that refuses the file (a file where the directory should
# be: ENOTDIR); every ID taken. (The last against the oracle in the full lane: its 3,000 globs of a
# 1,000-entry directory are 1.5 s of CPU; the quick lane checks the C claim's line itself.)
for who in shell c; do
    : >"$root/$who-file"
    for dir in "$root/$who-none" "$root/$who-file"; do
        if [ "$who" = shell ]; then out=$(claim_new_id "$dir" h 2>&1); else out=$("$writer" claim "$dir" h 2>&1); fi
        rc=$?
        last[$who]+="${out//$root\/$who/DIR} (exit $rc); "
    done
done
is "${last[c]}" "${last[shell]}" "claim when DIR is missing, DIR is a file: ${last[c]}"
taken() {  # taken WHO: its claim in a directory whose 1,000 IDs are taken
    local out rc n
    make_dir "$root/$1"
    for ((n = 1; n <= 1000; n++)); do : >"$root/$1/CLOMP_h_$n.env"; done
    if [ "$1" = shell ]; then out=$(claim_new_id "$root/$1" h 2>&1); else out=$("$writer" claim "$root/$1" h 2>&1); fi
    rc=$?
    echo "${out//$root\/$1/DIR} (exit $rc)"
}
taken_c=$(taken c)
like "$taken_c" "^run_clomp.sh: no free suite ID \(1..1000\) in DIR \(exit 2\)$" "claim when the 1,000 IDs are taken says there is no free ID (exit 2)"
if skip_unless_full_lane "claim when the 1,000 IDs are taken: as the shell's"; then
    is "$taken_c" "$(taken shell)" "claim when the 1,000 IDs are taken: as the shell's"
fi

# out-dir DIR (the driver's --out, made if need be): the shell's make_out_dir, kept here as it was,
# is the oracle: the same line, status and directories on a grid of paths.
make_out_dir() {
    local why
    [ ! -e "$1" ] || [ -d "$1" ] || die_usage "--out: $1 is not a directory"
    why=$(mkdir -p -- "$1" 2>&1) && return 0
    why=${why##*$'\n'}
    die_usage "--out: cannot create $1: ${why##*: }"
}
declare -A got=()
fails=0 cases=0
for who in shell c; do
    mkdir -p "$root/out-$who/there" && : >"$root/out-$who/file" && ln -s there "$root/out-$who/link" &&
        ln -s nowhere "$root/out-$who/dangling"
done
for path in there there/ new a/b/c a//b/ file file/out file/a/b link link/new dangling dangling/x ./rel/x \
    there/../up "$(printf 'x%.0s' {1..300})"; do
    for who in shell c; do
        if [ "$who" = shell ]; then out=$(cd "$root/out-$who" && make_out_dir "$path" 2>&1); else
            out=$(cd "$root/out-$who" && "$writer" out-dir "$path" 2>&1); fi
        got[$who]="$out (exit $?)"
    done
    cases=$((cases + 1))
    [ "${got[c]}" = "${got[shell]}" ] || { fails=$((fails + 1)); diag "$path: ${got[c]} / ${got[shell]}"; }
done
is "$fails" 0 "out-dir says and exits as the driver's make_out_dir did on all $cases paths"
is "$(state "$root/out-c")" "$(state "$root/out-shell")" "and leaves the same directories"
out=$(cd "$root/out-c" && "$writer" out-dir '' 2>&1)
is "$out (exit $?)" "run_clomp.sh: --out: needs a directory (exit 2)" "an empty DIR is refused in the driver's one line (exit 2), as run_clomp.sh refuses --out ''"

done_testing
