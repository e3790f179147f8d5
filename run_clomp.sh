#!/usr/bin/env bash
# run_clomp.sh: the CLOMP suite driver (after the CLOMP technical summary, 2007).
# Runs the key measurements first, then thread sweeps at every total zone size,
# and leaves <base>.env, <base>_key.full/.summary and <base>_<Z>zones.full/.summary
# in the output directory. See docs/suite.md.
set -u
if [ -z "${BASH_VERSINFO:-}" ] || [ "${BASH_VERSINFO[0]}" -lt 4 ] ||
    { [ "${BASH_VERSINFO[0]}" -eq 4 ] && [ "${BASH_VERSINFO[1]}" -lt 2 ]; }; then
    echo "run_clomp.sh: needs bash 4.2 or newer" >&2
    exit 2
fi

usage() {
    cat <<'EOF'
Usage: ./run_clomp.sh [options] [EXE [MAX_THREADS [TIME_SCALE]]]
       ./run_clomp.sh --compare A,B [--replicates N] [--quick] [--out DIR] [clomp arguments]

  EXE           clomp binary to run (default ./clomp, built with make if missing)
  MAX_THREADS   largest thread count (default: the number of cores)
  TIME_SCALE    clomp's timeScale for every run (default 100)

Options (defaults in brackets):
  --quick                 fast smoke run: TIME_SCALE 1 and max zone scale 100
  --max-zone-scale N      largest total zone count, as a multiple of the target zones [10000]
  --zone-scale-factor F   factor between successive total zone counts [10]
  --target-parts P        parts per run, rounded to a multiple of the thread count [64]
  --target-zones Z        total zones of the target input [6400]
  --out DIR               where the result files go [out]
  --env PRESET            source env/PRESET.sh first (gnu, llvm, intel, ibm-xl) [none]
  --launcher "CMD"        prefix every run, e.g. "numactl --interleave=all" [none]
  --mpi "CMD"             hybrid MPI + OpenMP: run every run with the MPI launcher CMD, e.g.
                          "mpirun -np 4 --map-by node" or "srun -n 4" (EXE default ./clomp_mpi,
                          built with make MPI=1); adds 1.2's packed layouts (cores/4 ranks x 4
                          threads, cores/16 x 16) where a node has at least twice those cores
  --numa                  also run the two largest zone sizes under each --numa policy
                          (interleave, local, node:0; needs a clomp built with libnuma)
  --stop-on-slowdown      stop if the target input's Static OMP speedup is below 1
  --replicates N          run the target input N times as separate processes, interleaved
                          with the other key runs, and summarise them between processes [3]
  --resume ID             finish an interrupted suite: run only what is missing
  --dry-run               print the plan (runs, estimated time and memory); run nothing
  --plots | --no-plots    charts (gnuplot) for the HTML report when the suite completes
                          [on when gnuplot is installed]
  --bundle [ID]           only (re)write the HTML report and the submission bundle
                          <base>.tar.gz of suite ID in --out [the latest]; a completed
                          suite always writes both
  --validate BUNDLE       only check a submission bundle (same as ./clomp_validate)
  -h, --help              this text

Exit status: 0 all runs done (failed runs are recorded, not fatal), 2 bad usage,
4 stopped by --stop-on-slowdown, 130 interrupted (resume with --resume ID).
With --validate: 0 valid, 1 invalid, 2 not a bundle.

--compare A,B runs two set-ups alternately and tests every figure for a
difference; ./run_clomp.sh --compare --help explains the side specifications.
EOF
}

die_usage() {
    printf 'run_clomp.sh: %s\n' "$1" >&2
    exit 2
}

is_count() { [[ $1 =~ ^[1-9][0-9]*$ ]]; }

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=results/suite_csv.sh
. "$here/results/suite_csv.sh"
orig_args=("$@")

# Cores, not hardware threads, and not whatever OMP_NUM_THREADS says (GNU
# nproc honours it): unique (core, socket) pairs, at most the CPUs we may use.
count_cores() {
    local cpus cores
    cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)
    cores=$(lscpu -p=CORE,SOCKET 2>/dev/null | grep -v '^#' | sort -u | wc -l)
    [ "$cores" -ge 1 ] && [ "$cores" -le "$cpus" ] || cores=$cpus
    echo "$cores"
}

# claim_new_id DIR HOST: sets id and base to the lowest ID of which no file
# at all exists in DIR. An ID is free only if no file of it exists at all;
# creating <base>.env with noclobber (O_EXCL) then claims it atomically
# against other suites and comparisons. Exits 2 when 1..1000 are all taken.
claim_new_id() {
    local dir=$1 host=$2 n existing
    id=''
    for ((n = 1; n <= 1000; n++)); do
        existing=("$dir/CLOMP_${host}_${n}".* "$dir/CLOMP_${host}_${n}"_*)
        if [ -e "${existing[0]}" ] || [ -e "${existing[1]}" ]; then continue; fi
        if (set -o noclobber; : >"$dir/CLOMP_${host}_${n}.env") 2>/dev/null; then
            id=$n
            break
        fi
    done
    [ -n "$id" ] || { echo "run_clomp.sh: no free suite ID (1..1000) in $dir" >&2; exit 2; }
    base="$dir/CLOMP_${host}_${id}"
}

# The statistics helper (compare/clomp_stats.c: timing/'s median interval and
# A/B tests), built on demand for --replicates and --compare.
stats_helper() {
    local helper=${CLOMP_STATS:-$here/build/clomp-stats}
    if [ ! -x "$helper" ]; then
        make -C "$here" --no-print-directory -s clomp-stats >&2 || return 1
        helper=$here/build/clomp-stats
    fi
    printf '%s\n' "$helper"
}

# --compare is its own command with clomp's arguments: compare/compare.sh.
for word in "$@"; do
    case $word in
        --compare | --compare=*)
            # shellcheck source=compare/compare.sh
            . "$here/compare/compare.sh"
            compare_main "$@"
            exit $?
            ;;
    esac
done
quick=0 max_zone_scale=10000 zone_scale_factor=10 target_parts=64 target_zones=6400
out_dir=out env_preset='' launcher='' stop_on_slowdown=0 resume_id='' dry_run=0 numa=0 mpi_launcher=''
mpi_given=0
plots=auto bundle_only=0 bundle_id='' validate_path=''
max_zone_scale_set=0 replicates=3
positional=()

while [ $# -gt 0 ]; do
    case $1 in
        --max-zone-scale | --zone-scale-factor | --target-parts | --target-zones | --out | --env | --launcher | --resume | --validate | --mpi | --replicates)
            [ $# -ge 2 ] || die_usage "$1: needs a value (see --help)" ;;
    esac
    case $1 in
        --quick) quick=1 ;;
        --max-zone-scale) max_zone_scale=${2-}; max_zone_scale_set=1; shift ;;
        --zone-scale-factor) zone_scale_factor=${2-}; shift ;;
        --target-parts) target_parts=${2-}; shift ;;
        --target-zones) target_zones=${2-}; shift ;;
        --out) out_dir=${2-}; shift ;;
        --env) env_preset=${2-}; shift ;;
        --launcher) launcher=${2-}; shift ;;
        --mpi) mpi_launcher=${2-}; mpi_given=1; shift ;;
        --stop-on-slowdown) stop_on_slowdown=1 ;;
        --numa) numa=1 ;;
        --resume) resume_id=${2-}; shift ;;
        --replicates) replicates=${2-}; shift ;;
        --replicates=*) replicates=${1#*=} ;;
        --dry-run) dry_run=1 ;;
        --plots) plots=yes ;;
        --no-plots) plots=no ;;
        --bundle)
            bundle_only=1
            if [[ ${2-} =~ ^[0-9]+$ ]]; then bundle_id=$2; shift; fi ;;
        --validate) validate_path=${2-}; shift ;;
        -h | --help) usage; exit 0 ;;
        --) shift; positional+=("$@"); break ;;
        -*) die_usage "unknown option '$1' (see --help)" ;;
        *) positional+=("$1") ;;
    esac
    shift
done
[ ${#positional[@]} -le 3 ] || die_usage "too many arguments: '${positional[3]}' (see --help)"
[ -z "$validate_path" ] || exec "$here/clomp_validate" "$validate_path"

if [ "$mpi_given" = 1 ]; then exe=${positional[0]-./clomp_mpi}; else exe=${positional[0]-./clomp}; fi
max_threads=${positional[1]-$(count_cores)}
time_scale=${positional[2]-100}
if [ "$quick" = 1 ]; then
    [ ${#positional[@]} -ge 3 ] || time_scale=1
    [ "$max_zone_scale_set" = 1 ] || max_zone_scale=100
fi

for pair in "MAX_THREADS:$max_threads" "TIME_SCALE:$time_scale" "--max-zone-scale:$max_zone_scale" \
    "--zone-scale-factor:$zone_scale_factor" "--target-parts:$target_parts" "--target-zones:$target_zones" \
    "--replicates:$replicates"; do
    is_count "${pair#*:}" || die_usage "${pair%%:*}: '${pair#*:}' is not a whole number > 0"
done
[ "$zone_scale_factor" -ge 2 ] || die_usage "--zone-scale-factor: '$zone_scale_factor' must be at least 2"
[ -z "$resume_id" ] || is_count "$resume_id" || die_usage "--resume: '$resume_id' is not a suite ID"
[ -n "$out_dir" ] || die_usage "--out: needs a directory"
if [ -n "$env_preset" ]; then
    [ -f "$here/env/$env_preset.sh" ] ||
        die_usage "--env: no preset '$env_preset' (have: $(for f in "$here"/env/*.sh; do basename "$f" .sh; done | tr '\n' ' '))"
    # shellcheck source=/dev/null
    . "$here/env/$env_preset.sh"
fi
read -r -a launcher_words <<<"$launcher"
[ "$mpi_given" = 0 ] || [ -n "${mpi_launcher// /}" ] || die_usage "--mpi: needs the launcher command, e.g. \"mpirun -np 4\""

# ---- MPI: the launcher's rank count, and the same launcher with another --------------
# The rank count given (-np N, -n N, --np N, --ntasks N, --ntasks=N, -nN), or "".
mpi_rank_count() {  # mpi_rank_count CMD
    local -a w
    local k
    read -r -a w <<<"$1"
    for ((k = 0; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            -np | -n | --np | --ntasks) echo "${w[k + 1]-}"; return ;;
            --ntasks=*) echo "${w[k]#--ntasks=}"; return ;;
            -n[0-9]*) echo "${w[k]#-n}"; return ;;
        esac
    done
}
# CMD with its rank count replaced by N.
mpi_with_ranks() {  # mpi_with_ranks CMD N
    local -a w
    local k out=''
    read -r -a w <<<"$1"
    for ((k = 0; k < ${#w[@]}; k++)); do
        case ${w[k]} in
            -np | -n | --np | --ntasks) out+="${w[k]} $2 "; k=$((k + 1)); continue ;;
            --ntasks=*) out+="--ntasks=$2 "; continue ;;
            -n[0-9]*) out+="-n$2 "; continue ;;
        esac
        out+="${w[k]} "
    done
    echo "${out% }"
}
# The launcher of a run of set SET: the --mpi one as given, or for a packed
# layout (set packedT) with cores/T ranks for each rank it gives the key runs.
mpi_ranks=''
if [ "$mpi_given" = 1 ]; then
    mpi_ranks=$(mpi_rank_count "$mpi_launcher")
    [ -z "$mpi_ranks" ] || is_count "$mpi_ranks" ||
        die_usage "--mpi: '$mpi_ranks' is not a rank count in \"$mpi_launcher\""
fi
mpi_launcher_for() {  # mpi_launcher_for SET
    local threads
    case $1 in
        packed*) threads=${1#packed}; mpi_with_ranks "$mpi_launcher" $((mpi_ranks * max_threads / threads)) ;;
        *) echo "$mpi_launcher" ;;
    esac
}
# 1.2's packed hybrid layouts: cores/4 ranks of 4 threads, cores/16 of 16, on
# the 6400-zone target input; only where a node has two such groups of cores,
# and the launcher's rank count can be scaled.
add_packed_layouts() {
    local t
    [ "$mpi_given" = 1 ] || return 0
    if [ -z "$mpi_ranks" ]; then
        echo "run_clomp.sh: notice: --mpi \"$mpi_launcher\" gives no rank count (-np N, -n N, --ntasks=N): no packed layouts" >&2
        return 0
    fi
    for t in 4 16; do
        [ "$max_threads" -ge $((2 * t)) ] || continue
        plan+=("packed$t||$t 1 $target_parts $(((target_zones + target_parts / 2) / target_parts)) 32 1 $time_scale")
    done
}
# The rank layout of every MPI run, for the .env file.
mpi_layout() {
    local i set_name policy args ranks
    local -a a
    echo "mpi launcher: $mpi_launcher"
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name policy args <<<"${plan[i]}"
        read -r -a a <<<"$args"
        ranks=$(mpi_rank_count "$(mpi_launcher_for "$set_name")")
        echo "run $((i + 1)) ($set_name): ${ranks:-launcher-chosen} rank(s) x ${a[0]} threads: $(mpi_launcher_for "$set_name")"
    done
}

# The host name goes into file names: keep it to safe characters.
host=$(uname -n | tr -c 'A-Za-z0-9.\n-' '_')
host=${host%%.*}

# ---- results of a suite: charts, HTML report, submission bundle ------------------------
# Charts need gnuplot: on by default when it is installed, a notice when not.
write_results() {  # write_results BASE: charts, <base>.html, <base>.tar.gz
    local chart_opt=--charts
    case $plots in
        no) chart_opt=--no-charts ;;
        auto)
            if ! command -v gnuplot >/dev/null 2>&1; then
                echo "run_clomp.sh: notice: gnuplot is not installed: no charts (install gnuplot-nox, then: make plots OUT=$1)" >&2
                chart_opt=--no-charts
            fi ;;
    esac
    "$here/results/report.sh" "$chart_opt" "$1" || return 1
    "$here/results/bundle.sh" "$1"
}

# The suite to bundle: this host's, or the only one of that ID (results
# copied from a compute node); without an ID, the highest.
if [ "$bundle_only" = 1 ]; then
    envs=$(for f in "$out_dir"/CLOMP_*.env; do
        [[ $f =~ _([0-9]+)\.env$ ]] && [ "${bundle_id:-${BASH_REMATCH[1]}}" = "${BASH_REMATCH[1]}" ] && echo "${f%.env}"
    done |
        awk '{ id = $0; sub(/.*_/, "", id); print id "\t" $0 }' | sort -n | cut -f2)
    [ -n "$envs" ] || die_usage "--bundle: no suite${bundle_id:+ $bundle_id} in $out_dir"
    if [ -n "$bundle_id" ] && [ -f "$out_dir/CLOMP_${host}_${bundle_id}.env" ]; then
        base="$out_dir/CLOMP_${host}_${bundle_id}"
    elif [ -n "$bundle_id" ] && [ "$(grep -c . <<<"$envs")" -gt 1 ]; then
        die_usage "--bundle: several suites $bundle_id in $out_dir: $(tr '\n' ' ' <<<"$envs")"
    else
        base=$(tail -n 1 <<<"$envs")
    fi
    grep -q '^---- complete ' "$base.env" ||
        echo "run_clomp.sh: warning: $base is not complete; its bundle will not validate" >&2
    write_results "$base" || exit 1
    exit 0
fi
if [ "$plots" = yes ] && ! command -v gnuplot >/dev/null 2>&1; then
    die_usage "--plots: gnuplot is not installed (apt-get install gnuplot-nox)"
fi

# A bare name is a file here if there is one, else a command on PATH: the
# binary checked must be the binary run.
case $exe in
    */*) ;;
    *) if [ -e "./$exe" ]; then exe=./$exe; else exe=$(command -v -- "$exe" || echo "./$exe"); fi ;;
esac
if [ ! -x "$exe" ] && [ "$dry_run" = 0 ]; then
    if [ "$exe" = ./clomp ] && [ "$(pwd -P)" = "$(cd "$here" && pwd -P)" ]; then
        make clomp >&2 || { echo "run_clomp.sh: could not build ./clomp" >&2; exit 2; }
    elif [ "$exe" = ./clomp_mpi ] && [ "$(pwd -P)" = "$(cd "$here" && pwd -P)" ]; then
        make MPI=1 clomp_mpi >&2 || { echo "run_clomp.sh: could not build ./clomp_mpi (make MPI=1)" >&2; exit 2; }
    fi
    [ -x "$exe" ] || die_usage "EXE: '$exe' is not an executable file"
fi

# Every run writes its own CSV (--csv); a binary without it cannot be run by this driver.
if [ "$dry_run" = 0 ] && ! "$exe" --help 2>&1 | grep -q -- '--csv='; then
    die_usage "EXE: $exe has no --csv option (built from older sources? rebuild with make)"
fi

if [ "$mpi_given" = 1 ] && [ "$dry_run" = 0 ] && ! "$exe" --version 2>/dev/null | grep -q '^mpi: yes'; then
    die_usage "--mpi: $exe is not an MPI build (make MPI=1 builds ./clomp_mpi)"
fi

if [ "$numa" = 1 ] && [ "$dry_run" = 0 ] && ! "$exe" --version 2>/dev/null | grep -q '^libnuma: yes'; then
    die_usage "--numa: $exe was built without libnuma (install libnuma-dev and rebuild)"
fi

# ---- the plan: every run, in order -------------------------------------------------
# A run is "set|numa policy|numThreads allocThreads numParts zonesPerPart zoneSize
# flopScale timeScale"; an empty policy is clomp's default, first touch.

zone_sizes=()
scale=1
while [ "$scale" -le "$max_zone_scale" ]; do
    zone_sizes+=($((target_zones * scale)))
    scale=$((scale * zone_scale_factor))
done

thread_counts=()
for ((t = 1; t <= max_threads && t <= 16; t++)); do thread_counts+=("$t"); done
for ((t = 32; t < max_threads; t *= 2)); do thread_counts+=("$t"); done
[ "$max_threads" -le 16 ] || thread_counts+=("$max_threads")

# The target input (the first key run) runs REPLICATES times as separate
# processes, spread over the other key runs rather than back to back, so
# that what separates processes (placement, a neighbour, frequency) shows
# up between them: T K2 K3 T K4 K5 T ... Appends to plan.
interleave_replicates() {  # interleave_replicates KEYS_ARRAY_NAME REPLICATES
    local -n key_list=$1
    local n=$2 others r k from to
    others=$((${#key_list[@]} - 1))
    for ((r = 0; r < n; r++)); do
        plan+=("${key_list[0]}")
        from=$((1 + r * others / n))
        to=$((1 + (r + 1) * others / n))
        for ((k = from; k < to; k++)); do plan+=("${key_list[k]}"); done
    done
}

# numParts a multiple of the thread count near the target parts, zonesPerPart so
# that the total stays within 5% of Z: every thread gets the same work.
sweep_shape() {  # sweep_shape THREADS ZONES -> "numParts zonesPerPart"
    local t=$1 z=$2 best='' best_err='' k parts zpp err
    for ((k = (target_parts + t / 2) / t; k >= 1; k--)); do
        parts=$((k * t))
        zpp=$(((z + parts / 2) / parts))
        [ "$zpp" -ge 1 ] || zpp=1
        err=$(((parts * zpp - z) * 1000 / z))
        err=${err#-}
        if [ -z "$best" ] || [ "$err" -lt "$best_err" ]; then best="$parts $zpp" best_err=$err; fi
        [ "$err" -gt 50 ] || break
    done
    [ "$best" ] || best="$t $(((z + t / 2) / t))"
    [ -z "$best_err" ] || [ "$best_err" -le 50 ] ||
        echo "run_clomp.sh: warning: $t threads: no shape within 5% of $z zones (off by $((best_err / 10)).$((best_err % 10))%)" >&2
    printf '%s\n' "$best"
}

keys=()
for z in "${zone_sizes[@]}"; do
    keys+=("key||$max_threads -1 $target_parts $(((z + target_parts / 2) / target_parts)) 32 1 $time_scale")
done
n_keys=${#zone_sizes[@]}
for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
    z=${zone_sizes[i]}
    keys+=("key||$max_threads 1 $target_parts $(((z + target_parts / 2) / target_parts)) 32 1 $time_scale")
done
if [ "$numa" = 1 ]; then
    # The first-touch runs of these sizes are the key runs above.
    for ((i = n_keys > 2 ? n_keys - 2 : 0; i < n_keys; i++)); do
        z=${zone_sizes[i]}
        for policy in interleave local node:0; do
            keys+=("key|$policy|$max_threads -1 $target_parts $(((z + target_parts / 2) / target_parts)) 32 1 $time_scale")
        done
    done
fi
plan=()
interleave_replicates keys "$replicates"
last_key_run=${#plan[@]}
add_packed_layouts
for z in "${zone_sizes[@]}"; do
    for t in "${thread_counts[@]}"; do
        plan+=("${z}zones||$t -1 $(sweep_shape "$t" "$z") 32 1 $time_scale")
    done
done
total_runs=${#plan[@]}

# Rough cost of one run: clomp sizes each of its 8 measurements to about
# timeScale/100 seconds on a 2 GHz core; memory is zones plus part structures.
run_seconds() { echo $(((8 * $1 + 99) / 100)); }
run_bytes() { echo $(($3 * $4 * $5 + 72 * $3)); }

mmss() { printf '%02d:%02d' $(($1 / 60)) $(($1 % 60)); }

if [ "$dry_run" = 1 ]; then
    echo "Plan: $total_runs runs of $exe (max threads $max_threads, timeScale $time_scale)"
    total=0
    for ((i = 0; i < total_runs; i++)); do
        IFS='|' read -r set_name policy args <<<"${plan[i]}"
        read -r -a a <<<"$args"
        secs=$(run_seconds "${a[6]}")
        total=$((total + secs))
        mpi_cmd=''
        [ "$mpi_given" = 0 ] || mpi_cmd="$(mpi_launcher_for "$set_name") "
        printf '[%d/%d] %-10s %s %s  ~%ss  %s bytes\n' $((i + 1)) "$total_runs" "$set_name" \
            "$mpi_cmd${launcher:+$launcher }$exe${policy:+ --numa=$policy}" "$args" "$secs" "$(run_bytes "${a[@]}")"
    done
    echo "Estimated total: ~$(mmss "$total") (mm:ss); nothing was run."
    exit 0
fi

plan_signature() {
    printf '%s;' "exe=$exe" "launcher=$launcher" ${mpi_launcher:+"mpi=$mpi_launcher"} "${plan[@]}"
}

# ---- output files --------------------------------------------------------------------
mkdir -p "$out_dir" || { echo "run_clomp.sh: cannot create $out_dir" >&2; exit 2; }

if [ -n "$resume_id" ]; then
    id=$resume_id
    base="$out_dir/CLOMP_${host}_${id}"
    if [ ! -f "$base.env" ] || [ ! -f "$base.done" ]; then die_usage "--resume: no suite $id in $out_dir"; fi
    # The plan (and binary and launcher) must be the ones the suite started with.
    saved=$(sed -n 's/^plan: //p' "$base.env" | head -n 1)
    [ "$saved" = "$(plan_signature)" ] ||
        die_usage "--resume: suite $id was started with other parameters (see $base.env); give the same ones"
else
    claim_new_id "$out_dir" "$host"
fi

# After a crash between recording a run and marking it done, its output and
# row may already be in the files: drop every section and row of a run that
# is not in .done, so that the resumed run appears exactly once.
drop_unfinished_runs() {
    local f tmpf
    for f in "$base"_*.summary "$base.csv"; do
        [ -e "$f" ] || continue
        tmpf=$(mktemp)
        awk -F, 'NR == FNR { done[$1] = 1; next } FNR == 1 || ($1 in done)' "$base.done" "$f" >"$tmpf" && mv "$tmpf" "$f"
    done
    for f in "$base"_*.full; do
        [ -e "$f" ] || continue
        tmpf=$(mktemp)
        awk 'NR == FNR { done[$1] = 1; next }
             /^=== run [0-9]+\// { split($3, r, "/"); keep = (r[1] in done) }
             keep' "$base.done" "$f" >"$tmpf" && mv "$tmpf" "$f"
    done
}

# ---- .env: the machine and environment the numbers came from -------------------------
preflight=()
write_env() {
    local var
    {
        echo "date: $(date)"
        printf 'host: %q\n' "$(uname -n)"
        echo "uname: $(uname -a)"
        echo "suite: $base"
        echo "executable: $exe"
        echo "max threads: $max_threads"
        echo "time scale: $time_scale"
        echo "env preset: ${env_preset:-none}"
        echo "launcher: ${launcher:-none}"
        if [ "$mpi_given" = 1 ]; then mpi_layout; else echo "mpi launcher: none"; fi
        echo "plan: $(plan_signature)"
        echo "---- build facts ($exe --version)"
        "$exe" --version 2>&1 || echo "not available"
        echo "---- CPU (lscpu)"
        lscpu 2>/dev/null || echo "not available"
        echo "---- memory (/proc/meminfo)"
        head -n 3 /proc/meminfo 2>/dev/null || echo "not available"
        echo "---- NUMA layout"
        if command -v numactl >/dev/null 2>&1; then
            numactl --hardware 2>&1
        elif command -v lstopo-no-graphics >/dev/null 2>&1; then
            lstopo-no-graphics 2>&1
        else
            echo "not available (install numactl or hwloc)"
        fi
        echo "---- OpenMP and launcher environment"
        local vars
        vars=$(compgen -e | grep -E '^(OMP_|GOMP_|KMP_|XLSMPOPTS|BG_|OMPI_|SLURM_)' | sort)
        [ -n "$vars" ] || echo "none set"
        while IFS= read -r var; do
            [ -z "$var" ] || printf '%s=%q\n' "$var" "${!var}"
        done <<<"$vars"
        echo "---- ulimit -a"
        ulimit -a
        echo "---- load average: $(cat /proc/loadavg 2>/dev/null || echo 'not available')"
        echo "---- cpu frequency governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo 'not available')"
        echo "---- numa_balancing: $(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 'not available')"
        echo "---- transparent hugepages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'not available')"
        echo "---- preflight warnings"
        if [ ${#preflight[@]} -eq 0 ]; then echo "none"; else printf 'WARNING: %s\n' "${preflight[@]}"; fi
    } >>"$base.env"
}

check_preflight() {
    local cores load governor balancing
    cores=$(count_cores)
    case ${OMP_PROC_BIND:-}${KMP_AFFINITY:-} in
        '' | [Ff][Aa][Ll][Ss][Ee]) preflight+=("threads not bound (OMP_PROC_BIND unset or false): they may migrate mid-run") ;;
    esac
    case ${OMP_WAIT_POLICY:-} in
        [Pp][Aa][Ss][Ss][Ii][Vv][Ee]) preflight+=("OMP_WAIT_POLICY=passive: sleeping threads add wake-up time to every loop") ;;
    esac
    [ "${KMP_BLOCKTIME:-}" != 0 ] || preflight+=("KMP_BLOCKTIME=0: libomp threads sleep at once, like a passive wait policy")
    [ "${GOMP_SPINCOUNT:-}" != 0 ] || preflight+=("GOMP_SPINCOUNT=0: libgomp threads sleep at once, like a passive wait policy")
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 0)
    if awk -v l="$load" -v c="$cores" 'BEGIN { exit !(l > 0.1 * c + 0.5) }'; then
        preflight+=("load average $load on $cores cores: the node is not dedicated")
    fi
    governor=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo '')
    [ -z "$governor" ] || [ "$governor" = performance ] ||
        preflight+=("CPU frequency governor is '$governor', not 'performance'")
    balancing=$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 0)
    [ "$balancing" = 0 ] || preflight+=("automatic NUMA balancing is on: pages may move during runs")
    [ "$max_threads" -le "$cores" ] || preflight+=("$max_threads threads requested on $cores cores: oversubscribed")
    return 0
}

start_epoch=$(date +%s)
run_csv="$out_dir/.CLOMP_${host}_${id}.run.csv"
if [ -z "$resume_id" ]; then
    check_preflight
    write_env
    "$here/results/machine.sh" "${base}_machine" "$exe"
    (set -o noclobber; : >"$base.done") || { echo "run_clomp.sh: $base.done already exists" >&2; exit 2; }
else
    echo "---- resumed $(date)" >>"$base.env"
    drop_unfinished_runs
fi

cat <<EOF
CLOMP suite $base
       Start date: $(date)
       Executable: $exe${launcher:+ (launcher: $launcher)}${mpi_launcher:+ (MPI: $mpi_launcher)}
      Max threads: $max_threads
       Time scale: $time_scale
 Output base name: $base
     Target parts: $target_parts
     Target zones: $target_zones
 Max zone scaling: $max_zone_scale (factor $zone_scale_factor)
             Runs: $total_runs${resume_id:+ (resuming: $(wc -l <"$base.done") already done)}
EOF
for w in ${preflight[@]+"${preflight[@]}"}; do echo "WARNING: $w"; done

# ---- running ---------------------------------------------------------------------------
interrupted=0 child=''
on_signal() {
    interrupted=1
    stop_child
}
# The child runs in its own process group (setsid), so a launcher's wrapper
# processes are stopped with it; KILL follows if TERM is not enough.
stop_child() {
    [ -n "$child" ] || return 0
    kill -TERM -- "-$child" 2>/dev/null || kill -TERM "$child" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        kill -0 "$child" 2>/dev/null || return 0
        sleep 0.25
    done
    kill -KILL -- "-$child" 2>/dev/null || kill -KILL "$child" 2>/dev/null
}
trap on_signal INT TERM HUP
have_setsid=0
command -v setsid >/dev/null 2>&1 && have_setsid=1

mark_incomplete() {
    local again
    again=$(printf '%q ' "$0" ${orig_args[@]+"${orig_args[@]}"})
    [ -n "$resume_id" ] || again="$again--resume $id"
    echo "---- interrupted $(date): incomplete; resume with: $again" >>"$base.env"
    echo "run_clomp.sh: interrupted; every finished run is saved. Resume with: $again" >&2
    exit 130
}

key_report() {  # what the 2007 summary tells users to check after each key run
    local f=$1
    echo "Key measurements from above run (if off, check environment):"
    grep -E '^ *(OMP Barrier  us/Loop|Bestcase OMP  Speedup|Static OMP  Speedup|Static OMP Efficacy|Static OMP Overhead):' "$f" ||
        echo "  (not available: the run failed)"
}

# ---- between processes: the replicated key runs, summarised ----------------------------
# Figures of the key summary that users check, as "column|label".
between_figures=('omp_barrier_us_per_loop|OMP Barrier us/Loop' 'bestcase_omp_speedup|Bestcase OMP speedup'
    'static_omp_speedup|Static OMP speedup' 'static_omp_efficacy_percent|Static OMP efficacy %'
    'static_omp_overhead_us|Static OMP overhead us/Loop' 'dynamic_omp_overhead_us|Dynamic OMP overhead us/Loop'
    'manual_omp_overhead_us|Manual OMP overhead us/Loop' 'nested_omp_overhead_us|Nested OMP overhead us/Loop'
    'omp_parallel_us_per_loop|OMP Parallel us/Loop' 'user_cpu_seconds|user CPU seconds'
    'system_cpu_seconds|system CPU seconds')

# awk: key() is a summary row's input, the seven clomp numbers and the numa
# policy (found by its header, wherever later columns are appended).
# shellcheck disable=SC2016  # awk code, expanded by awk
input_key='function key() { return $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12 " " $numa_at }
NR == 1 { for (c = 1; c <= NF; c++) if ($c == "numa") numa_at = c }'

# For every key input that ran as several processes: per figure the median
# over processes, min .. max and the 95% interval of the median (order
# statistics; none below 6 processes, when [min, max] and its coverage are
# given instead). Printed, and written to <base>_key.processes.csv and .txt.
key_between_processes() {
    local summary="${base}_key.summary" helper inputs input figure col label runs values line
    local csv="${base}_key.processes.csv" txt="${base}_key.processes.txt"
    [ -f "$summary" ] || return 0
    inputs=$(awk -F, "$input_key"' NR > 1 && $3 == "OK" && ++n[key()] == 2 { print key() }' "$summary")
    [ -n "$inputs" ] || return 0
    helper=$(stats_helper) || { echo "run_clomp.sh: warning: clomp-stats could not be built: no between-process summary" >&2; return 0; }
    echo 'input,numa,figure,processes,runs,median,min,max,ci95_low,ci95_high,ci_coverage,range_coverage' >"$csv"
    {
        echo "Between processes: the key runs that ran as several processes (--replicates)."
        echo "Each figure: the median over processes, min .. max, and the 95% interval of that median"
        echo "(order statistics over processes; below 6 processes none exists, and [min, max] with how often"
        echo "it holds the median is given). These, not the within-process intervals of each run, say what"
        echo "the next run on this node will give."
        while IFS= read -r input; do
            read -r -a w <<<"$input"
            runs=$(awk -F, -v k="$input" "$input_key"' NR > 1 && $3 == "OK" && key() == k { printf "%s%s", s, $1; s = " " }' "$summary")
            printf '\n  %s (numa %s): %d processes, runs %s\n' "${w[*]:0:7}" "${w[7]}" "$(wc -w <<<"$runs")" "$runs"
            printf '    %-30s %10s  %-17s  %s\n' figure median 'min .. max' '95% interval of the median'
            for figure in "${between_figures[@]}"; do
                col=${figure%%|*} label=${figure#*|}
                values=$(awk -F, -v k="$input" -v name="$col" "$input_key"' NR == 1 { for (c = 1; c <= NF; c++) if ($c == name) at = c }
                    NR > 1 && $3 == "OK" && key() == k && at && $at != "" { print $at }' "$summary")
                [ -n "$values" ] || continue
                # shellcheck disable=SC2086  # one value per word
                line=$("$helper" summary $values) || continue
                IFS=$'\t' read -r n median lo hi ci_lo ci_hi cov range_cov t_median t_lo t_hi t_ci_lo t_ci_hi <<<"$line"
                printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "${w[*]:0:7}" "${w[7]}" "$col" "$n" "$runs" "$median" "$lo" "$hi" \
                    "${ci_lo/NA/}" "${ci_hi/NA/}" "${cov/NA/}" "${range_cov/NA/}" >>"$csv"
                if [ "$ci_lo" != NA ]; then
                    printf '    %-30s %10s  %-17s  %s .. %s\n' "$label" "$t_median" "$t_lo .. $t_hi" "$t_ci_lo" "$t_ci_hi"
                else
                    printf '    %-30s %10s  %-17s  none from %d processes (min .. max holds it %.0f%% of the time)\n' \
                        "$label" "$t_median" "$t_lo .. $t_hi" "$n" "$(awk -v c="$range_cov" 'BEGIN { print c * 100 }')"
                fi
            done
        done <<<"$inputs"
    } | tee "$txt"
}

done_count=$(wc -l <"$base.done")
elapsed_done=0
for ((i = 0; i < total_runs; i++)); do
    run=$((i + 1))
    [ "$i" -ne "$last_key_run" ] || key_between_processes
    grep -qx "$run" "$base.done" && continue
    IFS='|' read -r set_name policy args <<<"${plan[i]}"
    full="${base}_${set_name}.full" summary="${base}_${set_name}.summary"
    [ -f "$summary" ] || summary_header >"$summary"
    read -r -a a <<<"$args"
    cmd=()
    [ "$mpi_given" = 0 ] || read -r -a cmd <<<"$(mpi_launcher_for "$set_name")"
    cmd+=(${launcher_words[@]+"${launcher_words[@]}"} "$exe")
    [ -z "$policy" ] || cmd+=("--numa=$policy")
    # clomp's own CSV of the run: the source of the .summary row and the suite's
    # .csv rows. In the output directory, which a launcher's node also sees.
    rm -f "$run_csv"
    cmd+=("--csv=$run_csv" "${a[@]}")

    now=$(date +%s)
    elapsed=$((now - start_epoch))
    remaining=$((total_runs - done_count))
    if [ "$elapsed_done" -gt 0 ]; then eta=$((elapsed * remaining / elapsed_done)); else eta=$((remaining * $(run_seconds "$time_scale"))); fi
    printf '[%d/%d] %s  elapsed %s  eta %s\n' "$run" "$total_runs" "${cmd[*]}" "$(mmss "$elapsed")" "$(mmss "$eta")" >&2

    tmp=$(mktemp)
    run_start=$(date +%s.%N)
    if [ "$have_setsid" = 1 ]; then
        setsid "${cmd[@]}" >"$tmp" 2>&1 </dev/null &
    else
        "${cmd[@]}" >"$tmp" 2>&1 </dev/null &
    fi
    child=$!
    wait "$child"
    rc=$?
    # A run ended by the signal that stops the suite (a batch system signals
    # every process) is unfinished, not failed: it runs again on --resume.
    if [ "$interrupted" = 1 ] || [ "$rc" -eq 129 ] || [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ]; then
        stop_child
        wait "$child" 2>/dev/null
        child=''
        rm -f "$tmp" "$run_csv"
        mark_incomplete
    fi
    child=''
    seconds=$(awk -v a="$run_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    if [ "$rc" -eq 0 ]; then status=OK; else status=FAILED; fi

    # Record the run: output, summary row, then the done mark, in a subshell
    # that ignores signals (as do the tools it runs), so a record is never cut.
    # It runs in the background and is waited for, because bash drops a SIGINT
    # that arrives while a foreground child ignores it; `wait` instead lets the
    # trap note the signal, and the loop stops once the record is complete.
    (
        trap '' INT TERM HUP
        {
            echo "=== run $run/$total_runs: ${cmd[*]}"
            cat "$tmp"
            echo "=== end of run $run: exit status $rc ($status)"
        } >>"$full"
        summary_row "$run" "$set_name" "$status" "$rc" "$seconds" "$args" "$run_csv" "${policy:-first-touch}" >>"$summary"
        suite_csv_rows "$run" "$set_name" "$status" "$rc" "$seconds" "$run_csv" "$base.csv"
        echo "$run" >>"$base.done"
    ) &
    recorder=$!
    wait "$recorder"
    while kill -0 "$recorder" 2>/dev/null; do wait "$recorder"; done
    done_count=$((done_count + 1))
    elapsed_done=$((elapsed_done + 1))

    if [ "$set_name" = key ] || [[ $set_name == packed* ]]; then
        echo "=== $run/$total_runs: ${cmd[*]} -> $status"
        key_report "$tmp"
        if [ "$run" = 1 ] && [ "$stop_on_slowdown" = 1 ]; then
            speedup=$(static_speedup "$run_csv")
            if [ -z "$speedup" ] || awk -v s="$speedup" 'BEGIN { exit !(s < 1) }'; then
                rm -f "$tmp" "$run_csv"
                echo "---- stopped: target input Static OMP speedup '${speedup:-none}' < 1" >>"$base.env"
                cat >&2 <<EOF
run_clomp.sh: stopping (--stop-on-slowdown): the target input's Static OMP speedup is ${speedup:-unknown}.
A 6400-zone loop should speed up. Check the environment before spending node time:
  bind threads (OMP_PROC_BIND=close OMP_PLACES=cores), use an active wait policy
  (OMP_WAIT_POLICY=active, or --env gnu / --env llvm), make sure the node is idle,
  and that MAX_THREADS does not exceed the cores.
EOF
                exit 4
            fi
        fi
    fi
    rm -f "$tmp" "$run_csv"
    [ "$interrupted" = 0 ] || mark_incomplete
done

[ "$total_runs" -gt "$last_key_run" ] || key_between_processes
replicates_files=''
[ ! -f "${base}_key.processes.csv" ] || replicates_files=" ${base}_key.processes.csv ${base}_key.processes.txt"
echo "---- complete $(date)" >>"$base.env"
echo "Suite complete: $total_runs runs. Files: $base.env ${base}_key.full ${base}_key.summary${replicates_files} ${base}_<Z>zones.* $base.csv"
if made=$(write_results "$base"); then
    echo "Report: $(grep '\.html$' <<<"$made")"
    echo "Submission bundle: $(grep '\.tar\.gz$' <<<"$made") (check it with ./clomp_validate)"
else
    echo "run_clomp.sh: the HTML report or the bundle could not be written (the results are complete)" >&2
fi
