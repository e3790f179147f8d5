# shellcheck shell=bash
# Helpers of the shell driver, run_clomp.sh, and its suite/ files (run_clomp.sh sources this
# file). Messages name run_clomp.sh: it is the command users type.
# The sourcing script sets `here`, the top of the source tree (sourced alone, for team_shape by
# make run and bench/node_check.sh: this file's tree).
: "${here:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

die_usage() {
    printf 'run_clomp.sh: %s\n' "$1" >&2
    exit 2
}

is_count() { [[ $1 =~ ^[1-9][0-9]{0,8}$ ]]; }   # at most 9 digits: bash's arithmetic never overflows on it

# clomp --topology's answer (numa/job_cores.c): the cores this job may use as
# clomp counts them (affinity mask, cgroup cpuset and cpu.max, SMT, Slurm; or
# --cores N, cores_given), how it counted them, the load and whether the node
# is busy, one "name: value" a line; run as the suite runs clomp (its
# --launcher, e.g. numactl, narrows the CPUs too). Read once by read_topology
# (a caller in a subshell reads it again); empty without a clomp that answers
# (a dry run before make).
topology_text=''
declare -ga launcher_words   # run_clomp.sh's --launcher, as words (empty for the comparisons)
read_topology() {
    local bin=${exe:-$here/clomp}
    [[ $bin == */* ]] || bin=$(command -v -- "$bin" || echo "./$bin")
    topology_text=$(${launcher_words[@]+"${launcher_words[@]}"} "$bin" --topology ${cores_given:+"--cores=$cores_given"} \
        2>/dev/null </dev/null) || topology_text=''
}
topology_field() {  # topology_field NAME: its value in the answer
    [ -n "$topology_text" ] || read_topology
    sed -n "s/^$1: //p" <<<"$topology_text"
}
# The cores (without an answer: --cores N, else the CPUs nproc counts).
count_cores() {
    local n
    n=$(topology_field cores)
    is_count "$n" || n=${cores_given:-$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)}
    echo "$n"
}
# How they were counted, for the dry run, the header and the .env.
topology_note() {
    local from
    from=$(topology_field 'counted from')
    echo "${from:-${cores_given:+--cores $cores_given given; }${exe:-clomp} cannot say (not built yet?): the CPUs nproc counts}"
}

# team_shape THREADS ZONES PARTS -> "numParts zonesPerPart": parts follow the team, by
# clomp-write plan shape (the rule and its warning: write/plan.c's team_shape).
team_shape() {
    [ -n "${writer-}" ] || find_writer
    "$writer" plan shape "$@"
}

# The host name as it goes into file names: its first label, in safe characters.
file_host_name() {
    local host
    host=$(uname -n | tr -c 'A-Za-z0-9.\n-' '_')
    printf '%s\n' "${host%%.*}"
}

# make_out_dir DIR: the output directory (--out), made if need be; when it cannot be, one line
# with the system's reason and exit 2 (clomp-write out-dir: write/suite_names.c).
make_out_dir() { "$writer" out-dir "$1" || exit 2; }

# claim_new_id DIR HOST: sets id and base to the lowest ID of which no file at all exists in DIR,
# claimed against other suites and comparisons; exits 2 when none is free or DIR refuses the file
# (clomp-write claim: write/suite_names.c, which says why a link is a file and how it claims).
claim_new_id() {
    id=$("$writer" claim "$1" "$2") || exit 2
    # shellcheck disable=SC2034  # the caller's result, like id
    base="$1/CLOMP_${2}_${id}"
}

# The drivers' writer (write/clomp_write.c), built on demand: every file they
# write in an output directory goes through it, never through a link.
#   put_file FILE: standard input becomes FILE (a new private name in FILE's
#     directory, synced, renamed over it; a link or other non-file there is refused)
#   add_to_file FILE: standard input appended (O_NOFOLLOW: a link is refused), synced
# find_writer sets writer; it exits 2 when the writer cannot be built.
find_writer() {
    writer=${CLOMP_WRITE-}
    [ -n "$writer" ] && [ -x "$writer" ] && return 0
    writer=$(built_helper clomp-write "$here"/write/*.[ch]) ||
        die_usage "could not build build/clomp-write (make clomp-write), the driver's safe writer"
}

# built_helper NAME SOURCE...: build/NAME's path, made by make when it is missing or older
# than one of its SOURCEs (a tree updated since: an older helper lacks the driver's newer
# subcommands; a tree copied without make, whose dates say nothing, keeps the one it has);
# only file dates are compared when it is fresh (no make run). 1: make failed.
built_helper() {
    local helper=$here/build/$1 f
    shift
    for f in "$helper" "$@"; do
        if [ ! -x "$helper" ] || { [ "$f" -nt "$helper" ] && command -v make >/dev/null; }; then
            make -C "$here" --no-print-directory -s "${helper##*/}" >&2 || return 1
            break
        fi
    done
    printf '%s\n' "$helper"
}
put_file() { "$writer" replace "$1"; }
add_to_file() { "$writer" append "$1"; }

# printable: standard input without control characters (C0 but newlines, DEL,
# C1 in UTF-8): for lines made of what files that may come from elsewhere say.
printable() { LC_ALL=C sed 's/[\x01-\x09\x0b-\x1f\x7f]//g; s/\xc2[\x80-\x9f]//g'; }

# The statistics helper (stats/clomp_stats.c: timing/'s median interval and
# A/B tests), built on demand for --replicates and --compare.
stats_helper() {
    if [ -n "${CLOMP_STATS-}" ] && [ -x "$CLOMP_STATS" ]; then printf '%s\n' "$CLOMP_STATS"; return 0; fi
    built_helper clomp-stats "$here"/stats/*.[ch] "$here"/timing/*.[ch] "$here"/measure/llnl_targets.[ch] "$here"/report/json.[ch]
}

# table_rows CSV PROGRAM: the awk PROGRAM over the rows of CSV (a table whose
# first row names its columns), cells by name: col("NAME") (RFC 4180 quotes:
# results/csv_columns.awk). Nothing when CSV is missing.
table_rows() { [ ! -e "$1" ] || awk -F, -f "$here/results/csv_columns.awk" -f <(printf '%s\n' "$2") "$1"; }

# --resume: rows of runs that are not in .done (a run a driver from before
# the record journal, suite/run_guard.sh, left half recorded, or one
# drop_incomplete_done_runs took back) leave the tables, by their run column,
# so that the resumed run has its rows once; so does its JSON record. Each table
# keeps its mode; one that cannot be rewritten stops the resume, exit 2
# (clomp-write drop-unfinished: write/resume_drop.c).
drop_unfinished_runs() { "$writer" drop-unfinished "$base" || exit 2; }

# refuse_links DIR NAME: --resume only reads and writes regular files: a suite whose files are links or
# anything but regular files and directories is refused (exit 2) before any is opened (clomp-write
# refuse-links: write/suite_names.c).
refuse_links() { "$writer" refuse-links "$1" "$2" || exit 2; }
