# shellcheck shell=bash
# --replicates auto[,PCT[,CAP[,MINUTES]]]: replication until the answer is
# tight (docs/noise.md). The target input starts with AUTO_START processes,
# interleaved with the other key runs as a fixed count is; then, after the
# key runs, one more target process at a time until the 95% interval of
# every key figure's median (order statistics over processes, clomp-stats)
# lies within +-PCT% of that median or +-0.1 us for figures in us (whichever
# is larger), or CAP processes ran, or MINUTES passed since the suite (or its
# resume) started. The stop and the width reached are said, and recorded in
# <base>.env so that --resume replays the same plan. Sourced by run_clomp.sh.
#   reads: base, here, plan, start_epoch (run_clomp.sh); stats_helper (suite/common.sh)
#   sets:  replicates, auto_pct, auto_cap, auto_minutes (parse_replicates); plan,
#          last_key_run, total_runs, auto_inserted (auto_insert)

AUTO_START=6            # fewest processes with a 95% interval of the median
auto_pct='' auto_cap='' auto_minutes='' auto_inserted=0
# The figures that must be tight, as "measurement key|clomp CSV column|label|unit" (unit us: the
# 0.1 us floor applies): CLOMP 1.2's Runtime figures, as the key summary shows them.
auto_figures=('barrier|runtime_us_per_loop|OMP Barrier us/Loop|us' 'static|runtime_overhead_us|Static OMP overhead|us'
    'dynamic|runtime_overhead_us|Dynamic OMP overhead|us' 'static|runtime_speedup|Static OMP speedup|')

# parse_replicates VALUE: sets replicates (the processes planned first) and,
# for auto, auto_pct, auto_cap, auto_minutes; exits 2 with one line on bad input.
parse_replicates() {
    local value=$1 rest extra
    if [[ $value != auto && $value != auto,* ]]; then
        is_count "$value" || die_usage "--replicates: '$value' is not a whole number > 0 or auto[,PCT[,CAP[,MINUTES]]]"
        return 0
    fi
    rest=${value#auto}
    rest=${rest#,}
    IFS=, read -r auto_pct auto_cap auto_minutes extra <<<"$rest"
    [ -z "${extra-}" ] || die_usage "--replicates: '$value' has more than PCT, CAP and MINUTES after auto"
    auto_pct=${auto_pct:-10} auto_cap=${auto_cap:-30} auto_minutes=${auto_minutes:-60}
    if ! [[ $auto_pct =~ ^[0-9]*\.?[0-9]+$ ]] || ! awk -v p="$auto_pct" 'BEGIN { exit !(p > 0) }'; then
        die_usage "--replicates auto: the width '$auto_pct' must be a percentage above 0 (e.g. auto,10)"
    fi
    if ! [[ $auto_cap =~ ^[0-9]+$ ]] || [ "$auto_cap" -lt 2 ]; then
        die_usage "--replicates auto: the cap '$auto_cap' must be a whole number of processes, at least 2"
    fi
    is_count "$auto_minutes" || die_usage "--replicates auto: the time cap '$auto_minutes' must be whole minutes > 0"
    # shellcheck disable=SC2034  # read by build_plan (suite/plan.sh)
    replicates=$((auto_cap < AUTO_START ? auto_cap : AUTO_START))
}

# The target processes run so far, whatever their figures (a process whose run marked a
# figure not a result still ran: issue 35): the distinct OK runs of INPUT up to LIMIT in <base>.csv.
# shellcheck disable=SC2154  # here, base: run_clomp.sh's (see the top)
auto_processes() {  # auto_processes INPUT LIMIT
    awk -F, -v want="$1" -v limit="$2" -f "$here/results/csv_columns.awk" -f <(cat <<'AWK'
col("run_status") == "OK" && col("run") + 0 <= limit && !(col("run") in seen) &&
    col("numThreads") " " col("allocThreads") " " col("numParts") " " col("zonesPerPart") " " col("zoneSize") " " \
    col("flopScale") " " col("timeScale") " " col("numa") == want { seen[col("run")]; n++ }
END { print n + 0 }
AWK
) "$base.csv" 2>/dev/null
}

# auto_widths INPUT LIMIT: per key figure "label<TAB>n<TAB>median<TAB>half<TAB>allowed" from the
# OK target runs numbered <= LIMIT in <base>.csv (clomp's own rows, read by column name,
# quote-aware: results/csv_columns.awk); half is NA without an interval. clomp-stats answers
# in JSON, read by member name (stats_field).
# shellcheck disable=SC2154  # here, base: run_clomp.sh's (see the top)
auto_widths() {
    local input=$1 limit=$2 helper figure key col label unit values json n median ci_lo ci_hi
    helper=$(stats_helper) || return 1
    for figure in "${auto_figures[@]}"; do
        IFS='|' read -r key col label unit <<<"$figure"
        values=$(awk -F, -v want="$input" -v key="$key" -v c="$col" -v limit="$limit" -f "$here/results/csv_columns.awk" -f <(cat <<'AWK'
col("key") == key && col("run_status") == "OK" && col("run") + 0 <= limit && col(c) != "" &&
    col("numThreads") " " col("allocThreads") " " col("numParts") " " col("zonesPerPart") " " col("zoneSize") " " \
    col("flopScale") " " col("timeScale") " " col("numa") == want { print col(c) }
AWK
) "$base.csv" 2>/dev/null)
        [ -n "$values" ] || continue
        # shellcheck disable=SC2086  # one value per word
        json=$("$helper" summary --json $values) || continue
        n=$(stats_field "$json" n) median=$(stats_field "$json" median)
        ci_lo=$(stats_field "$json" ci_low) ci_hi=$(stats_field "$json" ci_high)
        awk -v l="$label" -v n="$n" -v m="$median" -v lo="$ci_lo" -v hi="$ci_hi" -v p="$auto_pct" -v us="$unit" 'BEGIN {
            a = (m < 0 ? -m : m) * p / 100; if (us == "us" && a < 0.1) a = 0.1
            h = "NA"; if (lo != "null") h = (m - lo > hi - m) ? m - lo : hi - m
            printf "%s\t%d\t%.4g\t%s\t%.4g\n", l, n, m, h == "NA" ? h : sprintf("%.4g", h), a }'
    done
}

# stats_field JSON NAME: the member NAME of clomp-stats' one-line JSON object (numbers and null).
stats_field() {
    [[ $1 =~ \"$2\":\ ([^,}]*) ]] && printf '%s\n' "${BASH_REMATCH[1]}"
}

auto_insert() {  # auto_insert I: one more target process at plan index I
    plan=("${plan[@]:0:$1}" "${plan[0]}" "${plan[@]:$1}")
    last_key_run=$((last_key_run + 1)) total_runs=$((total_runs + 1)) auto_inserted=$((auto_inserted + 1))
}

# auto_replicates_step I: at the end of the key runs (I = last_key_run). Inserts one
# more target process at I (returns 0) while the key figures are not tight and
# no cap is reached; else says why it stopped, records it, and returns 1.
# shellcheck disable=SC2154  # start_epoch: run_clomp.sh's (see the top)
auto_replicates_step() {
    local i=$1 input widths wide processes why
    [ -n "$auto_pct" ] || return 1
    # --resume: the processes the interrupted suite added come first, as they were numbered.
    if [ "$auto_inserted" -lt "$(grep -c '^replicates auto: one more' "$base.env")" ]; then
        auto_insert "$i"
        return 0
    fi
    if grep -q '^replicates auto: stopped' "$base.env"; then
        sed -n '/^replicates auto: stopped/,/^[^ ]/p' "$base.env" | grep -v '^---- '
        return 1
    fi
    input="${plan[0]##*|} first-touch"
    widths=$(auto_widths "$input" "$i") || { echo "run_clomp.sh: warning: clomp-stats could not be built: --replicates auto stops" >&2; widths=''; }
    processes=$(auto_processes "$input" "$i")
    wide=$(awk -F'\t' '$4 == "NA" || $4 > $5 { printf "%s%s", s, $1; s = ", " }' <<<"$widths")
    if [ -z "$widths" ]; then why="no key figure to judge"
    elif [ -z "$wide" ]; then why="every key figure's 95% interval is within +-${auto_pct}% (or +-0.1 us)"
    elif [ "$processes" -ge "$auto_cap" ]; then why="cap of $auto_cap processes reached; still wide: $wide"
    elif [ $(($(date +%s) - start_epoch)) -ge $((auto_minutes * 60)) ]; then why="time cap of $auto_minutes min reached; still wide: $wide"
    else
        auto_insert "$i"
        echo "replicates auto: one more target process ($((processes + 1))): wide: $wide" >>"$base.env"
        return 0
    fi
    {
        echo "replicates auto: stopped after $processes processes: $why"
        awk -F'\t' '{ printf "  %-22s median %s, 95%% interval +-%s (wanted +-%s) from %d processes\n", $1, $3, $4 == "NA" ? "none" : $4, $5, $2 }' <<<"$widths"
    } | tee -a "$base.env"
    return 1
}
