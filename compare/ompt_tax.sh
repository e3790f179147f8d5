#!/usr/bin/env bash
# run_clomp.sh --ompt-tax: what attaching an OMPT tool costs each figure. The
# tool is chosen when the runtime starts, so it cannot change within one
# process: two A/B comparisons between processes (compare/compare.sh, ABBA,
# Mann-Whitney and the distribution-free interval of B/A), the same side
# without a tool against it with clomp's trivial tool (CLOMP_OMPT=trivial),
# then against its sampling tool (CLOMP_OMPT=sampling, 200 Hz of CPU time),
# and one table of both. See docs/ompt.md.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=suite/common.sh
. "$here/suite/common.sh"

tax_usage() {
    cat <<'EOF'
Usage: ./run_clomp.sh --ompt-tax [--side BASE] [--replicates N] [--quick] [--out DIR] [clomp arguments]

Runs BASE without a tool against BASE with clomp's trivial OMPT tool, then
against its sampling tool (200 Hz of CPU time; every sample checked), each as
an ABBA comparison of N processes per side (./run_clomp.sh --compare), and
prints per figure: the median without a tool, with each tool, and each
ratio tool/none with its 95% interval between processes; then the sampling
tool's samples per measurement (consistent, unavailable, inconsistent, idle).
Files: <out>/CLOMP_<host>_<ID>_ompt_tax.txt, .csv, and the two comparisons'
files under <out>/CLOMP_<host>_<ID>_ompt_tax.d/.

  --side BASE      an OMPT runtime side as --compare takes it (llvm, libomp,
                   a binary path; +VAR=VALUE settings allowed) [llvm with
                   clang installed, else libomp]
  --replicates N   processes per side and tool [10]
  --quick          timeScale 1 for the default input (a smoke test)
  --out DIR        where the files go [out]
Exit status: 0 measured, 1 a process failed, 2 bad usage, 3 a side could not be built.
EOF
}

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
trivial_csv=$(ls "$work"/trivial/*_compare.csv) sampling_csv=$(ls "$work"/sampling/*_compare.csv)
sampling_full=$(ls "$work"/sampling/*_compare.full)

# Both comparisons' rows joined by figure: each ratio is against its own no-tool processes.
table() {
    awk -F, -f "$here/results/csv_columns.awk" -f <(cat <<'AWK'
function interval(lo, hi) { return (lo == "" ? "no interval" : sprintf("%.3g..%.3g", lo, hi)) }
FILENAME != current { file++; current = FILENAME }   # the header line was taken by csv_columns.awk
file == 1 && FNR > 1 { order[++count] = col("figure"); none[col("figure")] = col("median_a")
    trivial[col("figure")] = col("median_b"); tr[col("figure")] = col("estimate")
    tlo[col("figure")] = col("ci95_low"); thi[col("figure")] = col("ci95_high"); tscale[col("figure")] = col("scale") }
file == 2 && FNR > 1 { sampling[col("figure")] = col("median_b"); sr[col("figure")] = col("estimate")
    slo[col("figure")] = col("ci95_low"); shi[col("figure")] = col("ci95_high"); sscale[col("figure")] = col("scale") }
END {
    for (i = 1; i <= count; i++) {
        f = order[i]
        if (!(f in sampling)) continue
        if (csv) {
            q = (f ~ /[,"]/) ? "\"" : ""
            printf "%s%s%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", q, f, q, none[f], trivial[f], tscale[f], tr[f], tlo[f], thi[f],
                sampling[f], sscale[f], sr[f], slo[f], shi[f]
        } else {
            printf "%-32s %10.4g %10.4g %7.3g%-5s %-16s %10.4g %7.3g%-5s %s\n", f, none[f], trivial[f], tr[f],
                tscale[f] == "ratio" ? "x" : " diff", interval(tlo[f], thi[f]), sampling[f], sr[f],
                sscale[f] == "ratio" ? "x" : " diff", interval(slo[f], shi[f])
        }
    }
}
AWK
) -v csv="$1" "$trivial_csv" "$sampling_csv"
}

# The sampling processes' samples, summed per measurement (the blocks' "Samples:" lines).
samples() {
    awk '/^=== process .*side B/ { b = 1 } /^=== process .*side A/ { b = 0 }
         b && / Samples: [0-9]+ consistent, / {
             name = substr($0, 1, 13); sub(/^ +/, "", name)
             if (!(name in c)) order[++count] = name
             line = $0; sub(/.* Samples: /, "", line); gsub(/[,;]/, "", line); split(line, w, " ")
             c[name] += w[1]; u[name] += w[3]; x[name] += w[5]; idle[name] += w[7]
         }
         END { for (i = 1; i <= count; i++) { s = order[i]
             printf "%-14s %10d %11d %12d %8d\n", s, c[s], u[s], x[s], idle[s] } }' "$sampling_full"
}

txt="${base}_ompt_tax.txt" csv="${base}_ompt_tax.csv"
{
    echo "clomp OMPT tool tax ${base##*/}"
    echo "       Date: $(date)"
    echo "       Host: $(uname -n)   load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
    echo "       Side: $side; no tool (A) against clomp's trivial tool, then against its sampling tool (200 Hz), B"
    echo "  Processes: $n per side in each comparison, ABBA; arguments: ${clomp_args[*]:-the target input}"
    echo
    echo "Medians over processes; ratio: tool/none, the median of all process ratios, with its 95% interval"
    echo "between processes (Bonferroni over each comparison's figures); 'diff' where a value is not positive."
    echo "Each ratio is against the no-tool processes interleaved with it (the 'none' column is the first's)."
    printf '%-32s %10s %10s %-29s %10s %s\n' figure none trivial '  trivial/none  95% interval' sampling '  sampling/none 95% interval'
    table 0
    echo
    echo "Sampling tool's samples, summed over its $n processes (docs/ompt.md: what each class means):"
    printf '%-14s %10s %11s %12s %8s\n' measurement consistent unavailable inconsistent idle
    samples
    echo
    echo "Comparisons: $(ls "$work"/trivial/*_compare.txt) $(ls "$work"/sampling/*_compare.txt)"
} >"$txt"
{
    echo 'figure,none_median,trivial_median,trivial_scale,trivial_ratio,trivial_ci95_low,trivial_ci95_high,sampling_median,sampling_scale,sampling_ratio,sampling_ci95_low,sampling_ci95_high'
    table 1
} >"$csv"
cat "$txt"
echo "Files: $txt $csv $work/"
