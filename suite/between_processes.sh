# shellcheck shell=bash
# Between processes: the key runs that ran as several processes (the target
# input, --replicates), summarised per figure over those processes. Sourced
# by run_clomp.sh; reads base (the suite's file base name) and uses
# stats_helper (suite/common.sh).
# shellcheck disable=SC2154  # base: assigned by run_clomp.sh

# Figures of the key summary that users check, as "column|label".
between_figures=('omp_barrier_us_per_loop|OMP Barrier us/Loop' 'bestcase_omp_speedup|Bestcase OMP speedup'
    'static_omp_speedup|Static OMP speedup' 'static_omp_efficacy_percent|Static OMP efficacy %'
    'static_omp_overhead_us|Static OMP overhead us/Loop' 'dynamic_omp_overhead_us|Dynamic OMP overhead us/Loop'
    'manual_omp_overhead_us|Manual OMP overhead us/Loop' 'nested_omp_overhead_us|Nested OMP overhead us/Loop'
    'omp_parallel_us_per_loop|OMP Parallel us/Loop' 'user_cpu_seconds|user CPU seconds'
    'system_cpu_seconds|system CPU seconds'
    'barrier@llnl_target_cycles|OMP Barrier cycles (LLNL)' 'parallel_for@llnl_target_cycles|Parallel For cycles (LLNL)')
# A "KEY@COLUMN" figure is read from the suite's <base>.csv: COLUMN of
# measurement KEY (LLNL's cycle figures are not in the summary).
between_values() {  # between_values INPUT FIGURE RUNS: the figure's value in each of RUNS
    local input=$1 col=$2 runs=$3
    if [[ $col == *@* ]]; then
        [ -s "$base.csv" ] || return 0
        awk -F, -v runs=" $runs " -v k="${col%@*}" -v c="${col#*@}" -f "$here/results/csv_columns.awk" \
            -f <(echo 'index(runs, " " col("run") " ") && col("key") == k && col(c) != "" { print col(c) }') "$base.csv"
        return
    fi
    awk -F, -v k="$input" -v name="$col" "$input_key"' NR == 1 { for (c = 1; c <= NF; c++) if ($c == name) at = c }
        NR > 1 && $3 == "OK" && key() == k && at && $at != "" { print $at }' "${base}_key.summary"
}

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
                values=$(between_values "$input" "$col" "$runs")
                [ -n "$values" ] || continue
                # shellcheck disable=SC2086  # one value per word
                line=$("$helper" summary $values) || continue
                IFS=$'\t' read -r n median lo hi ci_lo ci_hi cov range_cov t_median t_lo t_hi t_ci_lo t_ci_hi <<<"$line"
                printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "${w[*]:0:7}" "${w[7]}" "${col/@/_}" "$n" "$runs" "$median" "$lo" "$hi" \
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
