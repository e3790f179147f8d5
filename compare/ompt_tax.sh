#!/usr/bin/env bash
# run_clomp.sh --ompt-tax: what attaching an OMPT tool costs each figure. The
# tool is chosen when the runtime starts, so it cannot change within one
# process: two A/B comparisons between processes (compare/compare.sh, adjacent pairs,
# Mann-Whitney and the distribution-free interval of B/A), the same side
# without a tool against it with clomp's trivial tool (CLOMP_OMPT=trivial),
# then against its sampling tool (CLOMP_OMPT=sampling, 200 Hz of CPU time),
# and one table of both. See docs/ompt.md.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=suite/common.sh
. "$here/suite/common.sh"

# The help text is its own file: this script stays readable top to bottom.
tax_usage() { cat "$here/compare/ompt_tax_usage.txt"; }

side='' n=10 quick=0 out=out clomp_args=()
while [ $# -gt 0 ]; do
    case $1 in
        --side | --replicates | --out) [ $# -ge 2 ] || die_usage "$1: needs a value (see --ompt-tax --help)" ;;
    esac
    case $1 in
        -h | --help) tax_usage; exit 0 ;;
        --ompt-tax) ;;
        --side) side=$2; shift ;;
        --side=*) side=${1#*=} ;;
        --replicates) n=$2; shift ;;
        --replicates=*) n=${1#*=} ;;
        --quick) quick=1 ;;
        --out) out=$2; shift ;;
        --out=*) out=${1#*=} ;;
        --ompt | --ompt=*) die_usage "--ompt-tax: the tool is the driver's to choose (no --ompt)" ;;
        --compare | --compare=*) die_usage "--ompt-tax: give the side with --side, not --compare" ;;
        *) clomp_args+=("$1") ;;
    esac
    shift
done
if ! is_count "$n" || [ "$n" -lt 2 ]; then die_usage "--replicates: '$n' must be a whole number of at least 2"; fi
if [ -z "$side" ]; then
    if command -v clang >/dev/null 2>&1; then side=llvm; else side=libomp; fi
fi
[[ $side != *,* ]] || die_usage "--side: '$side' is one side (no comma)"
case $side in *CLOMP_OMPT=*) die_usage "--side: the driver sets CLOMP_OMPT itself" ;; esac
[ "$quick" = 0 ] || clomp_args=(--quick "${clomp_args[@]}")

mkdir -p "$out" || { echo "run_clomp.sh: cannot create $out" >&2; exit 2; }
claim_new_id "$out" "$(file_host_name)"
work="${base}_ompt_tax.d"
mkdir -p "$work/trivial" "$work/sampling"

# One comparison per tool; a failure's status (1 a process, 2 usage, 3 build) is ours.
for tool in trivial sampling; do
    printf '== %s: no tool (A) against CLOMP_OMPT=%s (B), %s processes each\n' "$side" "$tool" "$n" >&2
    "$here/compare/compare.sh" --compare "$side,$side+CLOMP_OMPT=$tool" --replicates "$n" --out "$work/$tool" \
        "${clomp_args[@]}" >"$work/$tool.log" || {
        status=$?
        echo "run_clomp.sh: --ompt-tax: the $tool comparison failed (exit status $status): see $work/$tool.log" >&2
        exit "$status"
    }
done
# The table of both comparisons and the sampling tool's samples: the results package, from the
# comparisons' JSON documents and the sampling processes' JSON records.
"$here/results/clomp-results" ompt-tax-report "$base" "$side" "$n" "$work" "${clomp_args[*]}" || exit 1
txt="${base}_ompt_tax.txt" csv="${base}_ompt_tax.csv"
echo "Files: $txt $csv $work/"
