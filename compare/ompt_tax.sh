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

# The options, read and checked by the results package (compare_options.py; one line and exit 2
# when refused): the side (default llvm where clang is installed, else libomp), the processes,
# --out, then clomp's arguments (--quick first when given).
command -v python3 >/dev/null 2>&1 || die_usage "--ompt-tax: needs python3 (3.8 or newer): it reads the options and writes the report"
# NUL-separated cells, read one by one: mapfile has no -d before bash 4.4 (run_clomp.sh takes 4.2).
parsed=()
while IFS= read -r -d '' cell; do parsed+=("$cell"); done < <("$here/results/clomp-results" compare-options --parse-ompt-tax "$@")
[ "${parsed[0]-}" != help ] || { cat "$here/compare/ompt_tax_usage.txt"; exit 0; }   # its own file: this one reads top to bottom
[ "${#parsed[@]}" -ge 3 ] || exit 2
side=${parsed[0]} n=${parsed[1]} out=${parsed[2]} clomp_args=("${parsed[@]:3}")

make_out_dir "$out"   # suite/common.sh
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
# The table of both comparisons and the sampling tool's samples, then the files' names: the results
# package, from the comparisons' JSON documents and the sampling processes' JSON records.
"$here/results/clomp-results" ompt-tax-report "$base" "$side" "$n" "$work" "${clomp_args[*]}" || exit 1
