#!/usr/bin/env bash
# constructs_table.sh BASE: the HTML report's construct section (results/html.sh
# prints it) from <base>.constructs.csv: per construct the level-1 overhead at
# the key thread count with its 95% interval and cycles (the run of set
# constructs), level 2 at clomp's default nested shape, and for each run of the
# inner-team sweep (sets constructs_outerO) the level-2 overhead with its ratio
# to level 1 at the inner team size. Prints nothing, exit 1, without a table.
set -u
base=${1:?usage: constructs_table.sh BASE}
here=$(cd "$(dirname "$0")" && pwd)
ccsv=$base.constructs.csv
[ -s "$ccsv" ] || exit 1

awk -F, -f "$here/csv_columns.awk" -f <(cat <<'AWK'
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function f(v) { return v == "" ? "" : (v + 0 >= 100 || v + 0 <= -100) ? sprintf("%.0f", v) : sprintf("%.3g", v) }
# The figure of a row, or why there is none; an interval missing or holding 0 is marked unresolved.
function figure(k,   s, lo, hi, text) {
    s = st[k]
    if (s == "") return "<td class=\"na\"></td>"
    if (s != "measured") return "<td class=\"" (s == "failed" ? "notmet" : "na") "\">" esc(s) (pr[k] == "" ? "" : ": " esc(pr[k])) "</td>"
    lo = clo[k]; hi = chi[k]
    text = f(ov[k]) (lo == "" ? " <span class=\"undecided\">(no interval: unresolved)</span>" : " (" f(lo) " .. " f(hi) ")" \
        (lo + 0 <= 0 && hi + 0 >= 0 ? " <span class=\"undecided\">(interval contains 0)</span>" : ""))
    if (ra[k] != "") text = text ", L2/L1 " sprintf("%.2f", ra[k])
    return "<td class=\"num\">" text "</td>"
}
{ name = col("construct_name"); run = col("run"); set = col("set"); level = col("level")
    if (!(name in seen)) { seen[name] = 1; names[++n] = name }
    if (set == "constructs") {
        if (key_run == "") { key_run = run; key_status = col("run_status") }
        if (level == "1" && !((name, "l1") in st)) { k = name SUBSEP "l1"; cyc[name] = col("overhead_cycles"); team1 = col("inner_threads") }
        else if (level == "2") { k = name SUBSEP "l2"; if (col("outer_threads") != "") shape = col("outer_threads") "x" col("inner_threads"); if (col("status") != "not run") any_l2 = 1 }
        else next
    } else if (set ~ /^constructs_outer/ && level == "2") {
        s = col("outer_threads") "x" col("inner_threads")
        if (s == "x") s = "run " run
        if (!(run in sweep_at)) { sweep_at[run] = ++nsweep; sweep[nsweep] = run; label[nsweep] = s }
        k = name SUBSEP "s" sweep_at[run]
    } else next
    st[k] = col("status"); pr[k] = col("problem"); ov[k] = col("overhead_us")
    clo[k] = col("overhead_ci95_low_us"); chi[k] = col("overhead_ci95_high_us"); ra[k] = col("level2_over_level1") }
END {
    print "<table>"
    printf "<tr><th>construct</th><th>level 1, %s threads (run %s): overhead, us (95%% interval)</th><th>cycles</th>", team1 == "" ? "?" : team1, key_run
    if (any_l2) printf "<th>level 2, %s (run %s), us</th>", shape, key_run
    for (i = 1; i <= nsweep; i++) printf "<th>level 2, %s (run %s), us</th>", label[i], sweep[i]
    print "</tr>"
    for (j = 1; j <= n; j++) { name = names[j]
        printf "<tr><td>%s</td>%s<td class=\"num\">%s</td>", esc(name), figure(name SUBSEP "l1"), (st[name, "l1"] == "measured" && cyc[name] != "") ? sprintf("%.0f", cyc[name]) : ""
        if (any_l2) printf "%s", figure(name SUBSEP "l2")
        for (i = 1; i <= nsweep; i++) printf "%s", figure(name SUBSEP "s" i)
        print "</tr>" }
    print "</table>"
    if (!any_l2 && key_run != "") print "<p class=\"na\">Level 2 at the key thread count: not run (" esc(pr[names[1], "l2"]) "); the sweep's columns give level 2.</p>"
}
AWK
) "$ccsv"
