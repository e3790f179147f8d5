#!/usr/bin/env bash
# plots.sh BASE: the suite's charts from its <base>.csv (one row per
# measurement of every run), as PNG and SVG in <base>_charts/:
#   speedup_<Z>zones   speedup vs threads at Z total zones: Static, Dynamic,
#                      Manual, Bestcase, and the ideal line
#   overhead_<Z>zones  overhead per schedule vs threads, us/Loop (left axis)
#                      and CPU cycles (right axis), 95% intervals as error bars
#   efficacy           efficacy vs total zones, key runs (all threads, first touch)
#   constructs_sync    from <base>.constructs.csv: each synchronisation construct's
#   constructs_loops   (or loop schedule's) level-2 overhead vs the inner team size,
#                      under 2 outer threads (the paper's figure 5), 95% intervals
# Needs gnuplot (Debian gnuplot-nox). Exit 0, 1 when a chart failed, 2 usage.
set -u
base=${1:?usage: plots.sh BASE}
here=$(cd "$(dirname "$0")" && pwd)
csv=$base.csv
[ -s "$csv" ] || { echo "plots.sh: no $csv (a suite written by this run_clomp.sh?)" >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || { echo "plots.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 2; }
charts=${base}_charts
mkdir -p "$charts" || exit 1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# extract AWK_PROGRAM: runs it over the suite CSV with the column helpers (any POSIX awk).
extract() {
    awk -F, -f "$here/csv_columns.awk" -f <(printf '%s\n' "$1") "$csv"
}

# The sweeps' zone sizes, in the order they ran.
zones=$(extract 'col("set") ~ /^[0-9]+zones$/ && !seen[col("set")]++ { z = col("set"); sub(/zones$/, "", z); print z }')
# Cycles per microsecond (1000 x GHz) of the suite's first run with a cycle rate.
cycles_per_us=$(extract 'col("ghz") != "" { printf "%.6f\n", col("ghz") * 1000; exit }')

style='set grid lc rgb "#d0d0d0"; set key outside right top box; set border lw 1.2
set style line 1 lc rgb "#1f77b4" lw 2 pt 7 ps 1.2
set style line 2 lc rgb "#d62728" lw 2 pt 5 ps 1.2
set style line 3 lc rgb "#2ca02c" lw 2 pt 9 ps 1.4
set style line 4 lc rgb "#9467bd" lw 2 pt 13 ps 1.4
set style line 5 lc rgb "#7f7f7f" lw 1.5 dt 2'

# render NAME TITLE SCRIPT: the chart as NAME.png and NAME.svg.
status=0
render() {
    local name=$1 title=$2 body=$3 term
    for term in "pngcairo size 900,540 font 'DejaVu Sans,11'|png" "svg size 900,540 dynamic font 'DejaVu Sans,12'|svg"; do
        if ! gnuplot >"$work/gnuplot.log" 2>&1 <<GP; then
set terminal ${term%|*}
set output "$charts/$name.${term#*|}"
set title "$title" font ",13"
$style
$body
GP
            echo "plots.sh: gnuplot failed on $name.${term#*|}:" >&2
            cat "$work/gnuplot.log" >&2
            status=1
        fi
    done
}

# has_data FILE COLUMN: some row of FILE has a number in COLUMN (a series worth a legend entry).
has_data() {
    awk -v c="$2" '$c != "NaN" && $c != "" { found = 1; exit } END { exit !found }' "$1"
}

# circle_unresolved DATA X Y CONDITION TITLE: appends to the caller's plot_lines a
# black circle on every point where the gnuplot expression Y is not NaN; the
# first chart series whose DATA has a row meeting the awk CONDITION names the
# circle TITLE in the legend (the caller's unresolved, 0 until then).
circle_unresolved() {
    plot_lines+="'$1' using $2:($3) with points pt 6 ps 2.2 lc rgb 'black' "
    if [ "$unresolved" = 0 ] && awk "$4 { f = 1 } END { exit !f }" "$1"; then
        plot_lines+="title '$5', "
        unresolved=1
    else
        plot_lines+="notitle, "
    fi
}
# series FILE "COLUMN|USING|STYLE|TITLE" ...: the plot clauses of the series that have data, each after ", ".
series() {
    local file=$1 spec c using style title
    shift
    for spec in "$@"; do
        IFS='|' read -r c using style title <<<"$spec"
        has_data "$file" "$c" || continue
        printf ", '%s' using %s with %s title '%s'" "$file" "$using" "$style" "$title"
    done
}

# Thread axis: linear up to 16 threads, log2 beyond.
thread_axis() {  # thread_axis MAX
    if [ "$1" -gt 16 ]; then
        printf 'set logscale x 2; set xrange [0.8:%s]\n' "$(($1 * 5 / 4))"
    else
        printf 'set xrange [0.5:%s]; set xtics 1\n' "$(($1 + 1))"
    fi
}

for z in $zones; do
    data=$work/speedup_$z.dat
    # threads, then per schedule speedup, efficacy; rows by thread count.
    Z="${z}zones" extract '
        col("set") == ENVIRON["Z"] && col("run_status") == "OK" {
            t = col("numThreads") + 0; threads[t] = 1; s[t, col("key")] = num("speedup")
            o[t, col("key")] = num("overhead_us"); lo[t, col("key")] = num("overhead_ci_low"); hi[t, col("key")] = num("overhead_ci_high") }
        # A missing figure is NaN, never an empty field (gnuplot would shift the columns after it).
        function v(x) { return x == "" ? "NaN" : x }
        END { split("static dynamic manual nested", k, " ")
            for (t in threads) {
                printf "%s %s %s %s %s", t, v(s[t, "static"]), v(s[t, "dynamic"]), v(s[t, "manual"]), v(s[t, "bestcase"])
                for (j = 1; j <= 4; j++) printf " %s %s %s", v(o[t, k[j]]), v(lo[t, k[j]]), v(hi[t, k[j]])
                printf "\n" } }' | sort -n >"$data"
    [ -s "$data" ] || continue
    max_t=$(awk 'END { print $1 }' "$data")
    zone_label=$(printf "%'d" "$z" 2>/dev/null || echo "$z")
    render "speedup_${z}zones" "Speedup vs threads, $zone_label total zones" "$(thread_axis "$max_t")
set xlabel 'threads'; set ylabel 'speedup over Serial Ref'; set yrange [0:*]
plot x with lines ls 5 title 'ideal'$(series "$data" "2|1:2|linespoints ls 1|Static" "3|1:3|linespoints ls 2|Dynamic" \
    "4|1:4|linespoints ls 3|Manual" "5|1:5|linespoints ls 4|Bestcase")"

    # Overhead: the four schedules side by side at each thread count (small
    # x offsets), each with its 95% interval; cycles on the right axis.
    y2=''
    if [ -n "$cycles_per_us" ]; then
        # Readable units on the cycles axis: 29.3M, not 29345018.
        y2="set link y2 via y*$cycles_per_us inverse y/$cycles_per_us; set y2label 'CPU cycles per loop'; set y2tics; set format y2 '%.1s%c'; set ytics nomirror"
    fi
    if [ "$max_t" -gt 16 ]; then off='*(1+0.03*(%d-2.5))'; else off='+0.08*(%d-2.5)'; fi
    plot_lines=''
    i=0
    unresolved=0
    for sched in "Static:6" "Dynamic:9" "Manual:12" "Nested:15"; do
        i=$((i + 1))
        c=${sched#*:}
        has_data "$data" "$c" || continue   # a schedule with no point gets no legend entry
        # shellcheck disable=SC2059  # the offset is a format on purpose
        x=$(printf "$off" "$i")
        plot_lines+="'$data' using (\$1$x):$c:$((c + 1)):$((c + 2)) with yerrorlines ls $i title '${sched%:*}', "
        # A point without an interval (one chunk, 2-5 rounds) is circled: it cannot be told from 0.
        circle_unresolved "$data" "(\$1$x)" "\$$((c + 1)) != \$$((c + 1)) ? \$$c : NaN" \
            "\$$c != \"NaN\" && \$$((c + 1)) == \"NaN\"" 'no interval (unresolved)'
    done
    [ -n "$plot_lines" ] || continue
    render "overhead_${z}zones" "Overhead vs bestcase, $zone_label total zones (95% intervals)" "$(thread_axis "$max_t")
set xlabel 'threads'; set ylabel 'overhead, us per loop'
$y2
set xzeroaxis lt -1
set bars small
plot ${plot_lines%, }"
done

# Efficacy vs total zones: the key runs with every thread, first touch.
data=$work/efficacy.dat
extract '
    col("set") == "key" && col("run_status") == "OK" && col("allocThreads") == "-1" && col("numa") == "first-touch" {
        z = col("numParts") * col("zonesPerPart"); zs[z] = 1; e[z, col("key")] = num("efficacy_percent"); t = col("numThreads") }
    function v(x) { return x == "" ? "NaN" : x }
    END { for (z in zs) printf "%s %s %s %s %s\n", z, v(e[z, "static"]), v(e[z, "dynamic"]), v(e[z, "manual"]), v(e[z, "nested"])
        print t > "/dev/stderr" }' 2>"$work/efficacy.threads" | sort -n >"$data"
if [ -s "$data" ]; then
    render efficacy "Efficacy vs total zones, $(cat "$work/efficacy.threads") threads (key runs)" "set logscale x 10
set format x '10^{%L}'; set xrange [*:*]; set offsets graph 0.05, graph 0.05, 0, 0
set xlabel 'total zones (numParts x zonesPerPart)'; set ylabel 'efficacy: bestcase time / schedule time (%)'
set yrange [0:*]; set offsets graph 0.05, graph 0.05, graph 0.05, 0
plot 100 with lines ls 5 title 'bestcase (100%)'$(series "$data" "2|1:2|linespoints ls 1|Static" "3|1:3|linespoints ls 2|Dynamic" \
    "4|1:4|linespoints ls 3|Manual" "5|1:5|linespoints ls 4|Nested")"
fi
# The construct sweep (suite/constructs.sh): level-2 overhead per construct
# against the inner team size; one line per construct with a point, a log
# axis (overheads span 0.01 us to ms). A point without an interval, or whose
# interval reaches 0, is circled (unresolved) and its bar drawn upwards only;
# an overhead at or below 0 has no place on the axis and is left out.
ccsv=$base.constructs.csv
construct_chart() {  # construct_chart NAME KIND TITLE: KIND sync or loops
    local data=$work/$1.dat names plot_lines='' j=0 c n x outer unresolved=0 count
    local -a pts=(1 2 3 4 5 7 8 9 10 11 12 13 14 15)   # never 6: the circle marks unresolved points
    [ -s "$ccsv" ] || return 0
    names=$(KIND=$2 awk -F, -f "$here/csv_columns.awk" -f <(cat <<'AWK'
col("set") ~ /^constructs_outer/ && col("level") == "2" {
    loop = col("chunk") != "" || col("construct") == "static"
    if ((ENVIRON["KIND"] == "loops") != loop) next
    n = col("construct_name"); if (!(n in idx)) { idx[n] = ++count; name[count] = n }
    t = col("inner_threads") + 0; inner[t] = 1; outer = col("outer_threads")
    v = num("overhead_us"); lo = num("overhead_ci95_low_us"); hi = num("overhead_ci95_high_us")
    if (col("status") != "measured" || v == "NaN" || v + 0 <= 0) v = lo = hi = "NaN"
    else if (lo == "NaN" || lo + 0 <= 0) { lo = v; if (hi == "NaN") hi = v; un[t, idx[n]] = 1 }
    val[t, idx[n]] = v " " lo " " hi }
END { for (j = 1; j <= count; j++) print outer "\t" name[j]
    for (t in inner) { line = t
        for (j = 1; j <= count; j++) line = line " " ((t, j) in val ? val[t, j] : "NaN NaN NaN") " " (((t, j) in un) ? 1 : 0)
        print line > DATA } }
AWK
) DATA="$data" "$ccsv")
    [ -n "$names" ] && [ -s "$data" ] || return 0
    sort -n "$data" -o "$data"
    n=$(awk 'END { print $1 }' "$data")
    outer=$(head -n 1 <<<"$names" | cut -f1)
    count=$(grep -c . <<<"$names")
    while IFS=$'\t' read -r _ cname; do
        j=$((j + 1))
        c=$((2 + 4 * (j - 1)))
        has_data "$data" "$c" || continue   # a construct with no point gets no legend entry
        x="(\$1*(1+0.012*($j-($count+1)/2.0)))"   # the constructs drawn slightly apart
        plot_lines+="'$data' using $x:$c:$((c + 1)):$((c + 2)) with yerrorlines lt $j pt ${pts[(j - 1) % ${#pts[@]}]} lw 2 title '$cname', "
        circle_unresolved "$data" "$x" "\$$((c + 3)) == 1 ? \$$c : NaN" "\$$((c + 3)) == 1" 'unresolved'
    done <<<"$names"
    [ -n "$plot_lines" ] || return 0
    render "$1" "$3, $outer outer threads (level 2)" "$(thread_axis "$n")
set xlabel 'inner team size (threads per outer thread)'
set ylabel 'overhead per instance, us'; set logscale y 10; set format y '10^{%L}'; set bars small
plot ${plot_lines%, }"
}
construct_chart constructs_sync sync "Construct overhead vs inner team size"
construct_chart constructs_loops loops "Loop schedule overhead vs inner team size"
exit "$status"
