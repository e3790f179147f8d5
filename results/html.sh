#!/usr/bin/env bash
# html.sh BASE [WHY-NO-CHARTS]: <base>.html, the suite's report in one self-contained page
# (charts inlined as SVG, no script, no network): key results against LLNL's
# targets first, then the charts, the environment, the build, the warnings
# and links to the raw files. Reads <base>.csv, .env, *.full, *.summary and
# <base>_charts/. Prints the file name; exit 0, 1 when it cannot be written,
# 2 when BASE is not a suite.
set -u
base=${1:?usage: html.sh BASE [WHY-NO-CHARTS]}
no_charts=${2-}  # why report.sh drew no charts, when it drew none
here=$(cd "$(dirname "$0")" && pwd)
csv=$base.csv env=$base.env
[ -f "$env" ] || { echo "html.sh: no suite at $base ($env is missing)" >&2; exit 2; }
name=$(basename "$base")
charts=${base}_charts
out=$base.html
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }
extract() {  # extract AWK_PROGRAM: over the suite CSV, cells by column name
    [ -s "$csv" ] || return 0
    awk -F, -f "$here/csv_columns.awk" -f <(printf '%s\n' "$1") "$csv"
}
env_value() { sed -n "s/^$1: //p" "$env" | head -n 1; }
env_section() {  # env_section TITLE-PREFIX: the lines under "---- TITLE..." up to the next "----"
    awk -v t="---- $1" 'index($0, t) == 1 { on = 1; next } /^---- / { on = 0 } on' "$env"
}
fmt() {  # fmt VALUE DECIMALS: a figure, or "n/a"
    if [ -z "$1" ]; then echo "n/a"; else LC_ALL=C printf "%.${2}f" "$1"; fi
}
verdict_class() {
    case $1 in met) echo met ;; "not met") echo notmet ;; undecided) echo undecided ;; *) echo na ;; esac
}

total_runs=$(env_value plan | tr ';' '\n' | grep -c '|')
done_runs=$(grep -c . "$base.done" 2>/dev/null)
failed_runs=$(cat "$base"_*.summary 2>/dev/null | awk -F, '$3 == "FAILED"' | grep -c .)
if grep -q '^---- complete ' "$env"; then state="complete"; else state="incomplete"; fi
# How many runs failed, and the first one's reason (results/first_failure.sh).
failure=$("$here/first_failure.sh" "$base")

# The target input is the suite's first run: its figures, one tab-separated line per measurement.
key_results() {
    extract 'col("run") == 1 { r = col("key")
        v[r] = col("us_per_loop"); sp[r] = col("speedup"); ef[r] = col("efficacy_percent"); ov[r] = col("overhead_us")
        lo[r] = col("overhead_ci_low"); hi[r] = col("overhead_ci_high"); ulo[r] = col("us_per_loop_ci_low"); uhi[r] = col("us_per_loop_ci_high")
        tc[r] = col("llnl_target_cycles"); tb[r] = col("llnl_target_below_cycles"); vd[r] = col("llnl_verdict")
        cyc[r] = col("us_per_loop_cycles"); clock = col("cycle_clock"); ghz = col("ghz")
        cmin = col("core_clock_min_ghz"); cmax = col("core_clock_max_ghz")
        args = col("numThreads") " " col("allocThreads") " " col("numParts") " " col("zonesPerPart") " " col("zoneSize") " " col("flopScale") " " col("timeScale")
        st = col("run_status") }
        END { print "args\t" args; print "status\t" st
            printf "clock\t%s\t%s\t%s\t%s\n", clock, ghz, cmin, cmax
            printf "static\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", sp["static"], ef["static"], ov["static"], lo["static"], hi["static"], tc["parallel_for"], tb["parallel_for"], vd["parallel_for"]
            printf "bestcase\t%s\n", sp["bestcase"]
            printf "barrier\t%s\t%s\t%s\t%s\t%s\t%s\n", v["barrier"], ulo["barrier"], uhi["barrier"], tc["barrier"], tb["barrier"], vd["barrier"]
            printf "parallel\t%s\t%s\n", v["parallel"], cyc["parallel"] }'
}

write_head() {
    cat <<EOF
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CLOMP results: $(printf '%s' "$name" | esc)</title>
<style>
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1000px; color: #222; line-height: 1.4; padding: 0 1em; }
h1 { border-bottom: 3px solid #1f77b4; padding-bottom: .2em; }
h2 { margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ccc; padding: .3em .7em; text-align: left; vertical-align: top; }
th { background: #f0f4f8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.met { background: #d8f0d8; color: #135c13; font-weight: bold; }
.notmet { background: #f8d7d7; color: #8a1515; font-weight: bold; }
.undecided { background: #fdf0c8; color: #7a5a00; font-weight: bold; }
.na { color: #777; }
figure { margin: 1em 0; border: 1px solid #ddd; padding: .5em; }
figure svg { width: 100%; height: auto; display: block; }
figcaption { font-size: .9em; color: #555; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: .6em; overflow-x: auto; font-size: .85em; }
</style>
</head>
<body>
<h1>CLOMP results: $(printf '%s' "$name" | esc)</h1>
<p>Host <b>$(sed -n 's/^host: //p' "$env" | head -n 1 | esc)</b>, started $(env_value date | esc).
Suite <b>$state</b>: $done_runs of $total_runs runs done, $failed_runs failed.
Max threads $(env_value 'max threads' | esc), timeScale $(env_value 'time scale' | esc),
OpenMP preset $(env_value 'env preset' | esc), launcher $(env_value launcher | esc),
MPI launcher $(env_value 'mpi launcher' | esc).</p>
EOF
    [ -z "$failure" ] || printf '<p class="notmet">%s</p>\n' "$(printf '%s' "$failure" | esc)"
    write_slurm_job
}

# A suite run inside a Slurm job: the job's facts (suite/slurm.sh wrote them
# to .env), and the later jobs that resumed it.
write_slurm_job() {
    local job later mpi_binding
    mpi_binding=$(env_value 'mpi cpu binding')
    job=$(env_value 'slurm job')
    [ -n "$job" ] && [ "$job" != none ] || return 0
    later=$(sed -n 's/^---- resumed .* in Slurm job \([0-9]*\).*/\1/p' "$env" | tr '\n' ' ')
    cat <<EOF
<p>Slurm job <b>$(printf '%s' "$job" | esc)</b>${later:+, resumed in job(s) $(printf '%s' "$later" | esc)}:
nodes $(env_value 'slurm nodes' | esc); CPUs $(env_value 'slurm cpus' | esc);
exclusive $(env_value 'slurm exclusive' | esc); other jobs on the node $(env_value 'slurm other jobs on node' | esc)${mpi_binding:+; MPI CPU binding $(printf '%s' "$mpi_binding" | esc)}.</p>
EOF
}

# With --replicates: the key figures over the target input's separate
# processes (<base>_key.processes.csv, written by run_clomp.sh). These, not
# one run's intervals within its process, are the figures to quote.
write_between_processes() {
    local processes_csv=${base}_key.processes.csv
    [ -s "$processes_csv" ] || return 0
    echo '<h3>Between processes (--replicates)</h3>'
    echo '<p>Every figure over the processes each key input ran as (the headline above is the target'"'"'s):'
    echo 'the median, the range, and the 95% interval'
    echo 'of the median between processes (order statistics; 6 processes or more, else the range and how often it holds'
    echo 'the median).</p>'
    echo '<table>'
    echo '<tr><th>input</th><th>figure</th><th>processes</th><th>median</th><th>min .. max</th><th>95% interval of the median</th></tr>'
    awk -F, 'NR > 1 {
        ci = ($9 != "") ? sprintf("%.4g .. %.4g", $9, $10) : sprintf("none (the range holds it %.0f%% of the time)", $12 * 100)
        printf "<tr><td><code>%s</code></td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%.4g</td><td class=\"num\">%.4g .. %.4g</td><td class=\"num\">%s</td></tr>\n", $1, $3, $4, $6, $7, $8, ci }' \
        "$processes_csv" | esc_cells
    echo '</table>'
}
# Table cells from our own CSV: only the text between tags needs escaping.
esc_cells() { sed -e 's/&/\&amp;/g'; }

# With --replicates the headline is the between-process figures of the
# target input (<base>_key.processes.csv, the runs that include run 1):
# "median<TAB>low<TAB>high<TAB>interval label<TAB>its coverage" for FIGURE, nothing without.
between() {  # between FIGURE
    [ -s "${base}_key.processes.csv" ] || return 0
    awk -F, -v f="$1" 'NR > 1 && $3 == f && index(" " $5 " ", " 1 ") {
        if ($9 != "") printf "%s\t%s\t%s\t95%% interval of the median between processes\t\n", $6, $9, $10
        else printf "%s\t%s\t%s\tmin .. max of the processes\t, which holds the median %.0f%% of the time\n", $6, $7, $8, $12 * 100 }' \
        "${base}_key.processes.csv"
}
# judge LOW HIGH BOUND: met when the whole interval is below BOUND, not met when
# it is all at or above, else undecided. LLNL's bounds are core cycles: a
# nominal TSC count is stretched over the cores' clock range first
# (clock_ghz, core_min, core_max: run 1's, set by write_key_results).
judge() {
    awk -v lo="$1" -v hi="$2" -v b="$3" -v g="${clock_ghz-}" -v fmin="${core_min-}" -v fmax="${core_max-}" 'BEGIN {
        if (lo == "" || hi == "" || b == "") { print ""; exit }
        if (g + 0 > 0 && fmin != "" && fmax != "") { lo = lo * fmin / g; hi = hi * fmax / g }
        if (hi + 0 < b + 0) print "met"; else if (lo + 0 >= b + 0) print "not met"; else print "undecided" }'
}
# headline FIGURE RUN1_VALUE RUN1_LOW RUN1_HIGH DECIMALS: sets hv (value), hlo,
# hhi (interval) and hci (its text) from the between-process figures when
# there are any, else from run 1 (its interval within its process).
headline() {
    local b label more=''
    b=$(between "$1")
    if [ -n "$b" ]; then
        IFS=$'\t' read -r hv hlo hhi label more <<<"$b"
    else
        hv=$2 hlo=$3 hhi=$4 label="95% interval within this process"
    fi
    hci=''
    [ -z "$hlo" ] || hci=" ($label $(fmt "$hlo" "$5") .. $(fmt "$hhi" "$5")$more)"
}

write_key_results() {
    local kr s_sp s_ef s_ov s_lo s_hi s_tc s_tb s_vd b_sp r_us r_lo r_hi r_tc r_tb r_vd p_us p_cyc args basis runs
    local hv hlo hhi hci ov_ci bar_ci r_vci s_vci clock clock_ghz core_min core_max clock_note
    echo '<h2 id="key-results">Key results: the target input</h2>'
    kr=$(key_results)
    runs=$(awk -F, 'NR > 1 && index(" " $5 " ", " 1 ") { print $5; exit }' "${base}_key.processes.csv" 2>/dev/null)
    if [ -z "$runs" ] && { [ -z "$kr" ] || [ "$(awk -F'\t' '$1 == "status" { print $2 }' <<<"$kr")" != OK ]; }; then
        echo '<p class="notmet">The target input (run 1) has no results: it did not run, or it failed (see its .full file).</p>'
    else
        IFS=$'\t' read -r _ s_sp s_ef s_ov s_lo s_hi s_tc s_tb s_vd < <(grep '^static' <<<"$kr")
        IFS=$'\t' read -r _ b_sp < <(grep '^bestcase' <<<"$kr")
        IFS=$'\t' read -r _ r_us r_lo r_hi r_tc r_tb r_vd < <(grep '^barrier' <<<"$kr")
        IFS=$'\t' read -r _ p_us p_cyc < <(grep '^parallel' <<<"$kr")
        IFS=$'\t' read -r _ clock clock_ghz core_min core_max < <(grep '^clock' <<<"$kr")
        args=$(awk -F'\t' '$1 == "args" { print $2 }' <<<"$kr")
        if [ -n "$runs" ]; then
            basis="the median of $(wc -w <<<"$runs") processes (runs $runs, --replicates), each figure with the interval between those processes"
            # Fork/join cycles: the median us at run 1's cycle rate.
            p_cyc=$(awk -v c="$p_cyc" -v u="$p_us" -v m="$(between omp_parallel_us_per_loop | cut -f1)" \
                'BEGIN { if (c != "" && u + 0 > 0 && m != "") print m * c / u }')
        else
            basis="one process (run 1), with intervals within that process"
        fi
        headline static_omp_speedup "$s_sp" '' '' 2; s_sp=$hv
        headline bestcase_omp_speedup "$b_sp" '' '' 2; b_sp=$hv
        headline static_omp_efficacy_percent "$s_ef" '' '' 1; s_ef=$hv
        headline static_omp_overhead_us "$s_ov" "$s_lo" "$s_hi" 2; s_ov=$hv ov_ci=$hci
        headline omp_barrier_us_per_loop "$r_us" "$r_lo" "$r_hi" 3; r_us=$hv bar_ci=$hci
        headline omp_parallel_us_per_loop "$p_us" '' '' 3; p_us=$hv
        headline barrier_llnl_target_cycles "$r_tc" '' '' 0
        if [ -n "$runs" ] && [ -n "$hlo" ]; then r_tc=$hv r_vd=$(judge "$hlo" "$hhi" "$r_tb"); fi
        r_vci=$hci
        headline parallel_for_llnl_target_cycles "$s_tc" '' '' 0
        if [ -n "$runs" ] && [ -n "$hlo" ]; then s_tc=$hv s_vd=$(judge "$hlo" "$hhi" "$s_tb"); fi
        s_vci=$hci
        if [ "$clock" = "nominal TSC cycles" ]; then
            clock_note="Cycles are nominal TSC cycles at $(fmt "$clock_ghz" 3) GHz; LLNL's targets are core cycles, so each
verdict is judged over the cores' clock range, $(fmt "$core_min" 2) to $(fmt "$core_max" 2) GHz (a figure within that range
of its bound is undecided; clomp --ghz gives the real core clock)."
        else
            clock_note="Cycles are ${clock:-unavailable} (the verdicts count them as core cycles)."
        fi
        cat <<EOF
<p>The target input, <code>clomp $(printf '%s' "$args" | esc)</code>: about 6400 zones on every core, a typical small
loop of a multiphysics code. If Static OMP does not speed it up, threading costs more than it saves.
Figures: <b>$basis</b>.</p>
<table>
<tr><th>figure</th><th>value</th></tr>
<tr><td>Static OMP speedup over Serial Ref</td><td class="num">$(fmt "$s_sp" 2)</td></tr>
<tr><td>Bestcase OMP speedup (the most these threads can give)</td><td class="num">$(fmt "$b_sp" 2)</td></tr>
<tr><td>Static OMP efficacy (bestcase time / Static time)</td><td class="num">$(fmt "$s_ef" 1)%</td></tr>
<tr><td>Static OMP overhead, us per loop</td><td class="num">$(fmt "$s_ov" 2)$ov_ci</td></tr>
<tr><td>OMP Barrier, us per barrier</td><td class="num">$(fmt "$r_us" 3)$bar_ci</td></tr>
<tr><td>OMP Parallel (fork/join), us</td><td class="num">$(fmt "$p_us" 3)</td></tr>
</table>
<h3>LLNL's targets (CPU cycles)</h3>
<table>
<tr><th>target</th><th>measured, cycles</th><th>LLNL needs</th><th>verdict</th></tr>
<tr><td>Barrier latency (OMP Barrier)</td><td class="num">$(fmt "$r_tc" 0)$r_vci</td><td>&lt; $(fmt "$r_tb" 0)</td><td class="$(verdict_class "$r_vd")">${r_vd:-unavailable (no cycle rate)}</td></tr>
<tr><td>Parallel-for overhead (Parallel For, EPCC's method)</td><td class="num">$(fmt "$s_tc" 0)$s_vci</td><td>&lt; $(fmt "$s_tb" 0)</td><td class="$(verdict_class "$s_vd")">${s_vd:-unavailable (no cycle rate)}</td></tr>
<tr><td>Fork/join (OMP Parallel)</td><td class="num">$(fmt "$p_cyc" 0)</td><td>no target</td><td class="na">informational</td></tr>
</table>
<p>A target is <i>met</i> or <i>not met</i> only when the whole interval shown says so, <i>undecided</i>
when the interval straddles it (with one process: run 1's 95% interval within its process). $(printf '%s' "$clock_note" | esc)</p>
EOF
        write_between_processes
    fi

    # Every key run: the headline figures per zone size.
    echo '<h3>Key runs</h3>'
    echo '<table><tr><th>run</th><th>arguments</th><th>numa</th><th>status</th><th>Static speedup</th><th>Static efficacy</th><th>Static overhead (us)</th><th>Static overhead, % of loop (95% CI)</th><th>Barrier (us)</th></tr>'
    extract 'col("set") == "key" { r = col("run"); if (!(r in seen)) { seen[r] = 1; order[++n] = r }
            args[r] = col("numThreads") " " col("allocThreads") " " col("numParts") " " col("zonesPerPart") " " col("zoneSize") " " col("flopScale") " " col("timeScale")
            numa[r] = col("numa"); st[r] = col("run_status")
            if (col("key") == "static") { sp[r] = col("speedup"); ef[r] = col("efficacy_percent"); ov[r] = col("overhead_us")
                res[r] = col("overhead_resolution"); pc[r] = col("overhead_percent_of_loop")
                pl[r] = col("overhead_percent_ci_low"); ph[r] = col("overhead_percent_ci_high") }
            if (col("key") == "barrier") bar[r] = col("us_per_loop") }
        function f(v, d) { return v == "" ? "n/a" : sprintf("%." d "f", v) }
        # A figure that cannot be told from 0 says so (docs/noise.md): no interval, or one containing 0.
        function mark(r) { return res[r] == "resolved" || res[r] == "" ? "" : " <span class=\"notmet\">(" (res[r] == "no interval" ? "no interval: unresolved" : "interval contains 0") ")</span>" }
        function pct(r) { return pc[r] == "" ? "n/a" : sprintf("%.2f%%", pc[r]) (pl[r] == "" ? "" : sprintf(" (%.2f .. %.2f)", pl[r], ph[r])) }
        END { for (i = 1; i <= n; i++) { r = order[i]
            printf "<tr><td class=\"num\">%s</td><td><code>%s</code></td><td>%s</td><td class=\"%s\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s%%</td><td class=\"num\">%s%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td></tr>\n",
                r, args[r], numa[r], (st[r] == "OK" ? "met" : "notmet"), st[r], f(sp[r], 2), f(ef[r], 1), f(ov[r], 2), mark(r), pct(r), f(bar[r], 3) } }'
    echo '</table>'
}

n_charts=0
chart() {  # chart FILE-STEM HEADING CAPTION
    local svg="$charts/$1.svg" dir
    [ -s "$svg" ] || return 0
    n_charts=$((n_charts + 1))
    dir=$(basename "$charts")
    printf '<h3>%s</h3>\n<figure>\n' "$2"
    # Inline: drop the XML prolog; give the ids of each chart a prefix of its
    # own, so that several SVGs in one page never share one.
    sed -e '/^<?xml/d' -e '/^<!DOCTYPE/d' -e "s/id=\\(['\"]\\)/id=\\1c${n_charts}_/g" \
        -e "s/href=\\(['\"]\\)#/href=\\1#c${n_charts}_/g" -e "s/url(#/url(#c${n_charts}_/g" "$svg"
    printf '<figcaption>%s <a href="%s/%s.png">PNG</a> <a href="%s/%s.svg">SVG</a></figcaption>\n</figure>\n' \
        "$3" "$dir" "$1" "$dir" "$1"
}

chart_zones() {  # chart_zones KIND: the zone sizes of KIND_<Z>zones.svg, smallest first
    local svg z
    for svg in "$charts/$1"_*zones.svg; do
        [ -e "$svg" ] || continue
        z=${svg##*/"$1"_}
        echo "${z%zones.svg}"
    done | sort -n
}

write_charts() {
    local z
    echo '<h2 id="charts">Charts</h2>'
    for z in $(chart_zones speedup); do
        chart "speedup_${z}zones" "Speedup vs threads, $z total zones" \
            "Serial Ref us/Loop divided by each schedule's, one run per thread count (numParts a multiple of the threads). The dashed line is ideal scaling."
    done
    for z in $(chart_zones overhead); do
        chart "overhead_${z}zones" "Overhead per schedule, $z total zones" \
            "Each schedule's us/Loop minus Bestcase's, with its 95% interval as an error bar; right axis in nominal CPU cycles. The schedules are drawn slightly apart at each thread count."
    done
    chart efficacy "Efficacy vs total zones" \
        "Bestcase time / schedule time for the key runs (every thread, first touch): how much of the ideal each schedule reaches as loops grow."
    [ "$n_charts" -gt 0 ] || printf '<p class="na">No charts: %s.</p>\n' "${no_charts:-no run gave figures to draw}"
}

# The construct runs (results/constructs_table.sh, the charts constructs_sync and constructs_loops).
write_constructs() {
    local table shapes
    table=$("$here/constructs_table.sh" "$base") || return 0
    echo '<h2 id="constructs">OpenMP constructs</h2>'
    echo "<p>What each OpenMP construct costs by EPCC's method (<code>clomp --constructs</code>, docs/constructs.md): the"
    echo 'overhead per instance, the median over the repetitions with its 95% interval within the run. Level 1 at the key'
    echo 'thread count; level 2: every outer thread runs the construct at once with its own inner team, and L2/L1 is that'
    echo 'overhead over level 1 at the inner team size. A row not measured says why. The suite runs fewer repetitions and'
    echo "chunk sizes than EPCC's defaults; <code>clomp --constructs</code> alone runs those.</p>"
    printf '%s\n' "$table"
    shapes=$(cat "$base"_constructs*.full 2>/dev/null | awk '/^=== run [0-9]+\// { r = $3; sub(/\/.*/, "", r) } /^Level 2: / { print "run " r ": " $0 }')
    [ -z "$shapes" ] || printf '<pre>%s</pre>\n' "$(esc <<<"$shapes")"
    chart constructs_sync "Construct overhead vs inner team size" \
        "Each synchronisation construct's level-2 overhead under 2 outer threads against the inner team size, 95% intervals as error bars (log axis); a circled point has no interval or one reaching 0, its bar drawn upwards only; an overhead at or below 0 is not drawn."
    chart constructs_loops "Loop schedule overhead vs inner team size" \
        "The same for the loop schedules (STATIC, and STATIC, DYNAMIC, GUIDED with chunks 1, 8, 64), per loop of 128 iterations per thread."
}

write_environment() {
    local label v
    echo '<h2 id="environment">Environment</h2>'
    echo '<table>'
    for label in 'cpu frequency governor' 'numa_balancing' 'transparent hugepages' 'load average'; do
        v=$(sed -n "s/^---- $label: //p" "$env" | head -n 1)
        printf '<tr><th>%s</th><td>%s</td></tr>\n' "$label" "$(printf '%s' "${v:-not recorded}" | esc)"
    done
    printf '<tr><th>CPU</th><td>%s</td></tr>\n' "$(env_section 'CPU' |
        grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|NUMA node\(s\)):' |
        tr -s ' ' | paste -sd ';' | sed 's/;/; /g' | esc)"
    echo '</table>'
    echo '<h3>OpenMP and launcher environment</h3>'
    printf '<pre>%s</pre>\n' "$(env_section 'OpenMP and launcher environment' | esc)"
    echo '<h3>Preflight warnings</h3>'
    printf '<pre>%s</pre>\n' "$(env_section 'preflight warnings' | esc)"
    echo '<h3>NUMA layout</h3>'
    printf '<pre>%s</pre>\n' "$(env_section 'NUMA layout' | esc)"
    echo '<h2 id="build">Build</h2>'
    printf '<pre>%s</pre>\n' "$(env_section 'build facts' | esc)"
}

write_warnings() {
    local warnings f
    echo '<h2 id="warnings">Warnings</h2>'
    warnings=$(for f in "$base"_*.full; do
        [ -e "$f" ] || continue
        awk '/^=== run [0-9]+\// { run = $3; sub(/\/.*/, "", run) }
             /WARNING/ { line = $0; gsub(/^ +/, "", line); print "run " run ": " line }' "$f"
    done | sort -t' ' -k2,2n)
    if [ -z "$warnings" ]; then
        echo '<p>No run printed a warning.</p>'
        return
    fi
    printf '<p>%s warning lines in the runs'"'"' output; by kind:</p>\n' "$(grep -c . <<<"$warnings")"
    echo '<table><tr><th>count</th><th>warning</th></tr>'
    sed -e 's/^run [0-9]*: //' -e 's/[0-9][0-9.]*%/N%/g' <<<"$warnings" | sort | uniq -c | sort -rn |
        while read -r count text; do
            printf '<tr><td class="num">%s</td><td>%s</td></tr>\n' "$count" "$(printf '%s' "$text" | esc)"
        done
    printf '</table>\n<details><summary>every warning line</summary><pre>%s</pre></details>\n' "$(esc <<<"$warnings")"
}

write_files() {
    local f g b
    echo '<h2 id="files">Raw files</h2>'
    echo '<ul>'
    for f in "$base".* "$base"_*; do
        [ -e "$f" ] || continue
        b=$(basename "$f")
        case $b in *.html | *.tar.gz | *.tmp.*) continue ;; esac
        if [ -d "$f" ]; then
            for g in "$f"/*; do
                [ -e "$g" ] || continue
                printf '<li><a href="%s/%s">%s/%s</a></li>\n' "$b" "$(basename "$g")" "$b" "$(basename "$g")"
            done
        else
            printf '<li><a href="%s">%s</a> (%s bytes)</li>\n' "$b" "$b" "$(wc -c <"$f" | tr -d ' ')"
        fi
    done
    echo '</ul>'
}

{
    write_head
    write_key_results
    write_charts
    write_constructs
    write_environment
    write_warnings
    write_files
    echo "<p class=\"na\">Made by run_clomp.sh (results/html.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'). Self-contained: no scripts, no network.</p>"
    echo '</body></html>'
} >"$tmp" && mv "$tmp" "$out" || exit 1
echo "$out"
